package dev.tailor.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public type or member that is public only so that Tailor's own modules can share it (the
 * simulator drives the runtime's dispatch core, the command line reads the tables' internals). It
 * is not API: it may change or disappear in any release, as Lucene's {@code @lucene.internal}
 * classes may. Everything public and not marked {@code @Internal} or {@link Experimental} is the
 * stable API.
 */
@Internal
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface Internal {}
