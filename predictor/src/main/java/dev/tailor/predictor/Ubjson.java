package dev.tailor.predictor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes Universal Binary JSON (UBJSON, draft 12: big-endian numbers, strings and keys prefixed by
 * their length, optimized containers with {@code $type} and {@code #count}) into a Jackson tree:
 * the format XGBoost saves a booster in, read here in Java so that a model file never reaches
 * XGBoost's native parser before it has been checked. That parser trusts its input: a truncated
 * booster makes it read past its buffer and crash the whole JVM (XGBoost 3.0.4, {@code
 * XGBoosterLoadModelFromBuffer} on the first 23 bytes of a saved model), which for a server
 * watching its model file would be an outage caused by a bad copy.
 *
 * <p>Strict and bounded: every length and count is checked against the bytes left before anything
 * is allocated, so a declared size cannot exhaust memory; nesting deeper than {@value #MAX_DEPTH}
 * is refused, so the recursion cannot exhaust the stack; strings must be valid UTF-8; trailing
 * bytes after the value are refused. An optimized container may only be typed with a numeric type
 * (the only kind XGBoost writes). No Java library reads UBJSON into Jackson's tree (Jackson's
 * binary formats are Smile, CBOR, Ion and others, not UBJSON), so this small decoder is Tailor's
 * own.
 */
final class Ubjson {

  /** The deepest nesting of arrays and objects accepted; XGBoost's models nest about 8 deep. */
  static final int MAX_DEPTH = 64;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final byte[] in;
  private int at;

  private Ubjson(byte[] in) {
    this.in = in;
  }

  /**
   * Decodes one UBJSON value that fills {@code bytes}.
   *
   * @throws IOException if the bytes are not one well-formed UBJSON value; the message says what is
   *     wrong and at which byte
   */
  static JsonNode read(byte[] bytes) throws IOException {
    Ubjson u = new Ubjson(bytes);
    JsonNode value = u.value(u.marker(), 0);
    if (u.at != bytes.length) {
      throw u.problem("trailing bytes after the value");
    }
    return value;
  }

  private IOException problem(String what) {
    return new IOException("UBJSON byte " + at + " of " + in.length + ": " + what);
  }

  /** The next marker, skipping no-ops. */
  private byte marker() throws IOException {
    byte m;
    do {
      m = (byte) u8();
    } while (m == 'N');
    return m;
  }

  private JsonNode value(byte marker, int depth) throws IOException {
    return switch (marker) {
      case 'Z' -> NODES.nullNode();
      case 'T' -> NODES.booleanNode(true);
      case 'F' -> NODES.booleanNode(false);
      case 'i', 'U', 'I', 'l', 'L', 'd', 'D' -> number(marker);
      case 'H' -> highPrecision();
      case 'C' -> {
        int c = u8();
        if (c > 127) {
          throw problem("a char above 127: " + c);
        }
        yield NODES.textNode(String.valueOf((char) c));
      }
      case 'S' -> NODES.textNode(string());
      case '[' -> array(depth + 1);
      case '{' -> object(depth + 1);
      default -> throw problem("unknown marker 0x" + Integer.toHexString(marker & 0xff));
    };
  }

  private JsonNode number(byte type) throws IOException {
    return switch (type) {
      case 'i' -> NODES.numberNode((int) (byte) u8());
      case 'U' -> NODES.numberNode(u8());
      case 'I' -> NODES.numberNode((int) (short) bigEndian(2));
      case 'l' -> NODES.numberNode((int) bigEndian(4));
      case 'L' -> NODES.numberNode(bigEndian(8));
      case 'd' -> NODES.numberNode(Float.intBitsToFloat((int) bigEndian(4)));
      case 'D' -> NODES.numberNode(Double.longBitsToDouble(bigEndian(8)));
      default -> throw problem("not a numeric type: 0x" + Integer.toHexString(type & 0xff));
    };
  }

  private JsonNode highPrecision() throws IOException {
    String digits = string();
    // Jackson's own limit on a number's length: BigDecimal parses long digit strings slowly.
    if (digits.length() > 1000) {
      throw problem("a high-precision number of " + digits.length() + " characters, over 1000");
    }
    try {
      return NODES.numberNode(new BigDecimal(digits));
    } catch (NumberFormatException e) {
      throw problem("a high-precision number that is not a number: " + digits);
    }
  }

  private ArrayNode array(int depth) throws IOException {
    ArrayNode out = NODES.arrayNode();
    Header h = header(depth, 0);
    for (long i = 0; i < h.count; i++) {
      out.add(h.type == 0 ? value(marker(), depth) : number(h.type));
    }
    for (byte next = h.next; h.count < 0 && next != ']'; next = marker()) {
      out.add(value(next, depth));
    }
    return out;
  }

  private ObjectNode object(int depth) throws IOException {
    ObjectNode out = NODES.objectNode();
    // Each entry takes at least a one-byte key length besides its value.
    Header h = header(depth, 1);
    for (long i = 0; i < h.count; i++) {
      String key = lengthPrefixed((byte) u8());
      out.set(key, h.type == 0 ? value(marker(), depth) : number(h.type));
    }
    for (byte next = h.next; h.count < 0 && next != '}'; next = marker()) {
      String key = lengthPrefixed(next);
      out.set(key, value(marker(), depth));
    }
    return out;
  }

  /**
   * How a container goes on after its opening marker.
   *
   * @param type the numeric type of every element ({@code $}), or 0
   * @param count the number of elements ({@code #}), or -1 if a closing marker ends the container
   * @param next the first marker of the container's body, when {@code count} is -1
   */
  private record Header(byte type, long count, byte next) {}

  /** Reads an optimized container's {@code $type} and {@code #count}, if any. */
  private Header header(int depth, int overheadPerElement) throws IOException {
    if (depth > MAX_DEPTH) {
      throw problem("nested deeper than " + MAX_DEPTH);
    }
    byte next = marker();
    byte type = 0;
    if (next == '$') {
      type = numericType();
      next = marker();
      if (next != '#') {
        throw problem("a typed container without a count");
      }
    }
    if (next != '#') {
      return new Header((byte) 0, -1, next);
    }
    return new Header(type, count(overheadPerElement + (type == 0 ? 1 : width(type))), next);
  }

  /** The type after a {@code $}: a numeric one. */
  private byte numericType() throws IOException {
    byte type = (byte) u8();
    if (width(type) == 0) {
      throw problem("a container typed 0x" + Integer.toHexString(type & 0xff) + ", not a number");
    }
    return type;
  }

  /** The bytes a value of numeric type {@code type} takes, or 0 if it is not numeric. */
  private static int width(byte type) {
    return switch (type) {
      case 'i', 'U' -> 1;
      case 'I' -> 2;
      case 'l', 'd' -> 4;
      case 'L', 'D' -> 8;
      default -> 0;
    };
  }

  /** A container's count, which must leave at least {@code perElement} bytes for each element. */
  private long count(int perElement) throws IOException {
    long count = length(marker());
    if (count > (in.length - at) / perElement) {
      throw problem("a count of " + count + " elements in " + (in.length - at) + " bytes");
    }
    return count;
  }

  /** A string: {@code S} was read, then its length and its UTF-8 bytes. */
  private String string() throws IOException {
    return lengthPrefixed(marker());
  }

  /** A length (whose integer marker is {@code lengthMarker}) and that many bytes of UTF-8. */
  private String lengthPrefixed(byte lengthMarker) throws IOException {
    long length = length(lengthMarker);
    if (length > in.length - at) {
      throw problem("a string of " + length + " bytes, " + (in.length - at) + " left");
    }
    try {
      String s =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(in, at, (int) length))
              .toString();
      at += (int) length;
      return s;
    } catch (CharacterCodingException e) {
      throw problem("a string that is not UTF-8");
    }
  }

  /** A non-negative integer whose marker is {@code marker}. */
  private long length(byte marker) throws IOException {
    long n =
        switch (marker) {
          case 'i' -> (byte) u8();
          case 'U' -> u8();
          case 'I' -> (short) bigEndian(2);
          case 'l' -> (int) bigEndian(4);
          case 'L' -> bigEndian(8);
          default ->
              throw problem(
                  "expected an integer length or count, got marker 0x"
                      + Integer.toHexString(marker & 0xff));
        };
    if (n < 0) {
      throw problem("a negative length or count: " + n);
    }
    return n;
  }

  private int u8() throws IOException {
    if (at >= in.length) {
      throw problem("the data ends early");
    }
    return in[at++] & 0xff;
  }

  private long bigEndian(int bytes) throws IOException {
    if (bytes > in.length - at) {
      throw problem("the data ends early");
    }
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = (v << 8) | (in[at++] & 0xff);
    }
    return v;
  }
}
