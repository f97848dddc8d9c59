package dev.tailor.core;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.GenericDeclaration;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the signatures by which an API type lets a caller reach a type that is not API: a public or
 * protected constructor, method or field, a type parameter's bound, the superclass or an interface
 * that names a type marked {@link Internal} (or nested in one) or a type a caller outside its
 * package cannot name. Public and protected nested types of an API type are API as well and are
 * searched the same way; one nested there that is marked {@link Internal} is itself a finding,
 * since a caller reaches it through the API type's name.
 *
 * <p>The rule is strict: a member that is itself marked {@link Internal} is searched like any
 * other, because a caller compiled against the API type sees it all the same. Generic signatures
 * are walked whole (type arguments, wildcard bounds, array components, owner types); a type
 * variable used in a signature is not followed to its bounds, which are searched where the variable
 * is declared.
 */
final class ApiSignatures {

  private ApiSignatures() {}

  /**
   * Every offending signature of {@code api} and of its public and protected nested types, one line
   * each, naming the signature and the types in it that are not API; empty when there is none.
   */
  static List<String> leaks(Class<?> api) {
    List<String> found = new ArrayList<>();
    search(api, found);
    return found;
  }

  private static void search(Class<?> type, List<String> found) {
    String owner = type.getTypeName();
    check(found, owner, "type parameters of " + type.getTypeName(), bounds(type));
    Type superclass = type.getGenericSuperclass();
    if (superclass != null) {
      check(found, owner, "superclass " + superclass.getTypeName(), List.of(superclass));
    }
    for (Type face : type.getGenericInterfaces()) {
      check(found, owner, "interface " + face.getTypeName(), List.of(face));
    }
    for (Constructor<?> c : sorted(type.getDeclaredConstructors())) {
      if (visible(c)) {
        check(found, owner, c.toGenericString(), executableTypes(c));
      }
    }
    for (Method m : sorted(type.getDeclaredMethods())) {
      if (visible(m) && !m.isBridge()) {
        List<Type> types = new ArrayList<>(executableTypes(m));
        types.add(m.getGenericReturnType());
        check(found, owner, m.toGenericString(), types);
      }
    }
    for (Field f : sorted(type.getDeclaredFields())) {
      if (visible(f)) {
        check(found, owner, f.toGenericString(), List.of(f.getGenericType()));
      }
    }
    for (Class<?> nested : sorted(type.getDeclaredClasses())) {
      if (!visible(nested)) {
        continue;
      }
      if (nested.isAnnotationPresent(Internal.class)) {
        found.add(
            owner
                + ": nested "
                + nested.getTypeName()
                + " is marked @Internal but reached through the API type's name: move it out or"
                + " make it package-private");
      } else {
        search(nested, found);
      }
    }
  }

  private static List<Type> executableTypes(Executable e) {
    List<Type> types = new ArrayList<>(bounds(e));
    types.addAll(Arrays.asList(e.getGenericParameterTypes()));
    types.addAll(Arrays.asList(e.getGenericExceptionTypes()));
    return types;
  }

  private static List<Type> bounds(GenericDeclaration declaration) {
    List<Type> bounds = new ArrayList<>();
    for (TypeVariable<?> variable : declaration.getTypeParameters()) {
      bounds.addAll(Arrays.asList(variable.getBounds()));
    }
    return bounds;
  }

  private static void check(List<String> found, String owner, String signature, List<Type> types) {
    Set<String> offending = new LinkedHashSet<>();
    for (Type t : types) {
      collect(t, offending);
    }
    if (!offending.isEmpty()) {
      found.add(owner + ": " + signature + " mentions " + String.join(", ", offending));
    }
  }

  /** Adds what is wrong with each class {@code type} names to {@code offending}. */
  private static void collect(Type type, Set<String> offending) {
    switch (type) {
      case Class<?> c -> {
        Class<?> named = c;
        while (named.isArray()) {
          named = named.getComponentType();
        }
        String problem = problem(named);
        if (problem != null) {
          offending.add(problem);
        }
      }
      case ParameterizedType p -> {
        collect(p.getRawType(), offending);
        if (p.getOwnerType() != null) {
          collect(p.getOwnerType(), offending);
        }
        for (Type argument : p.getActualTypeArguments()) {
          collect(argument, offending);
        }
      }
      case WildcardType w -> {
        for (Type bound : w.getUpperBounds()) {
          collect(bound, offending);
        }
        for (Type bound : w.getLowerBounds()) {
          collect(bound, offending);
        }
      }
      case GenericArrayType a -> collect(a.getGenericComponentType(), offending);
      case TypeVariable<?> v -> {
        // Its bounds are searched where it is declared; following them here could loop forever
        // (T extends Comparable<T>).
      }
      default -> offending.add("unknown kind of type " + type.getTypeName());
    }
  }

  /** Why a caller outside the module cannot rely on {@code c}, or null when it can. */
  private static String problem(Class<?> c) {
    if (c.isPrimitive()) {
      return null;
    }
    for (Class<?> t = c; t != null; t = t.getEnclosingClass()) {
      if (t.isAnnotationPresent(Internal.class)) {
        return "@Internal " + c.getTypeName();
      }
    }
    for (Class<?> t = c; t != null; t = t.getEnclosingClass()) {
      boolean member = t.getEnclosingClass() != null;
      if (!(member ? reachable(t.getModifiers()) : Modifier.isPublic(t.getModifiers()))) {
        return "non-public " + c.getTypeName();
      }
    }
    return null;
  }

  private static boolean visible(Member m) {
    return !m.isSynthetic() && reachable(m.getModifiers());
  }

  private static boolean visible(Class<?> nested) {
    return !nested.isSynthetic() && reachable(nested.getModifiers());
  }

  private static boolean reachable(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /** Sorted by name, then text, so that the findings come in the same order on every run. */
  private static <T extends Member> List<T> sorted(T[] members) {
    return Arrays.stream(members)
        .sorted(Comparator.comparing(Member::getName).thenComparing(Object::toString))
        .toList();
  }

  private static List<Class<?>> sorted(Class<?>[] types) {
    return Arrays.stream(types).sorted(Comparator.comparing(Class::getName)).toList();
  }
}
