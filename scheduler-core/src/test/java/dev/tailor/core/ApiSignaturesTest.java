package dev.tailor.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The signature check reports each signature of an API type that reaches a type that is not API,
 * and nothing else. Public, as are its fixtures, so that they count as reachable from any package.
 */
public class ApiSignaturesTest {

  private static final String HERE = ApiSignaturesTest.class.getName() + "$";

  /** A type that is not API. */
  @Internal
  public static final class Hidden {
    /** Not API either: its enclosing type is internal. */
    public static final class Inner {}
  }

  /** An exception that is not API. */
  @Internal
  public static final class HiddenException extends Exception {}

  /** A type no caller outside the package can name. */
  static final class PackagePrivate {}

  /** Every kind of signature that mentions only API types, and non-API types where none looks. */
  public static class Clean implements Supplier<List<? super Integer>>, Comparable<Clean> {
    public Map<String, int[]>[] field;
    Hidden packagePrivateField;
    private PackagePrivate privateField;

    public Clean(String text) {}

    Clean(Hidden hidden) {}

    @Override
    public List<? super Integer> get() {
      return List.of();
    }

    @Override
    public int compareTo(Clean other) {
      return 0;
    }

    protected <T extends Comparable<? super T>> T max(List<? extends T> values) {
      return values.getFirst();
    }

    Hidden packagePrivate() {
      return null;
    }

    private PackagePrivate secret() {
      return null;
    }

    /** A nested API type whose signatures are clean too. */
    public static final class Nested {
      public Clean clean() {
        return null;
      }
    }

    private static final class Helper {
      public Hidden hidden() {
        return null;
      }
    }
  }

  /** An API type with a type parameter. */
  public static class Base<X> {}

  /** Each public or protected signature here reaches a type that is not API. */
  public static class Leaky<T extends Hidden> extends Base<Hidden>
      implements Supplier<List<Hidden>> {
    public Map<String, Hidden[]> field;

    public Leaky(Hidden hidden) {}

    public Leaky() {}

    @Override
    public List<Hidden> get() {
      return List.of();
    }

    protected Hidden.Inner nested() {
      return null;
    }

    public <E extends Exception & Comparable<? super Hidden>> void bounded()
        throws HiddenException {}

    public List<Hidden>[] genericArray() {
      return null;
    }

    public PackagePrivate packagePrivate() {
      return null;
    }

    /** Marked internal, yet a caller compiled against {@code Leaky} sees it all the same. */
    @Internal
    public Hidden markedInternal() {
      return null;
    }

    public String clean() {
      return "";
    }

    /** A nested API type: searched like its enclosing type. */
    public static final class Nested {
      public List<? extends PackagePrivate> wildcard() {
        return List.of();
      }
    }

    /** A nested internal type, reached through the API type's name. */
    @Internal
    public static final class NestedInternal {}
  }

  @Test
  void cleanSignaturesAreNotReported() {
    assertEquals(List.of(), ApiSignatures.leaks(Clean.class));
  }

  @Test
  void everyLeakingSignatureIsReportedWithWhatItReaches() {
    List<String> leaks =
        ApiSignatures.leaks(Leaky.class).stream().map(l -> l.replace(HERE, "")).toList();

    assertEquals(
        List.of(
            "Leaky: type parameters of Leaky mentions @Internal Hidden",
            "Leaky: superclass Base<Hidden> mentions @Internal Hidden",
            "Leaky: interface java.util.function.Supplier<java.util.List<Hidden>>"
                + " mentions @Internal Hidden",
            "Leaky: public Leaky(Hidden) mentions @Internal Hidden",
            "Leaky: public <E extends java.lang.Exception & java.lang.Comparable<? super Hidden>>"
                + " void Leaky.bounded() throws HiddenException"
                + " mentions @Internal Hidden, @Internal HiddenException",
            "Leaky: public java.util.List<Hidden>[] Leaky.genericArray() mentions @Internal Hidden",
            "Leaky: public java.util.List<Hidden> Leaky.get() mentions @Internal Hidden",
            "Leaky: public Hidden Leaky.markedInternal() mentions @Internal Hidden",
            "Leaky: protected Hidden$Inner Leaky.nested() mentions @Internal Hidden$Inner",
            "Leaky: public PackagePrivate Leaky.packagePrivate() mentions non-public PackagePrivate",
            "Leaky: public java.util.Map<java.lang.String, Hidden[]> Leaky.field"
                + " mentions @Internal Hidden",
            "Leaky$Nested: public java.util.List<? extends PackagePrivate> Leaky$Nested.wildcard()"
                + " mentions non-public PackagePrivate",
            "Leaky: nested Leaky$NestedInternal is marked @Internal but reached through the API"
                + " type's name: move it out or make it package-private"),
        leaks);
  }
}
