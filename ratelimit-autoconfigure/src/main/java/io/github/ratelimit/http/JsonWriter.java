package io.github.ratelimit.http;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes one flat JSON object without a JSON library: the problem body is small and fixed
 * in shape, and the core must not depend on Jackson. Strings are escaped so that the
 * output is plain ASCII: quotes, backslashes and every control character, every non-ASCII
 * character as a {@code u} escape of four hex digits (a body read with the wrong charset
 * still says the same thing), {@code <}, {@code >} and {@code &} (nothing can be sniffed
 * as markup), and a lone surrogate as U+FFFD (it has no encoding in UTF-8).
 */
final class JsonWriter {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private final StringBuilder builder = new StringBuilder(512).append('{');

	private boolean first = true;

	/** Adds a string member. */
	JsonWriter string(String name, String value) {
		name(name);
		appendString(this.builder, value);
		return this;
	}

	/** Adds an integer member. */
	JsonWriter number(String name, long value) {
		name(name);
		this.builder.append(value);
		return this;
	}

	/** Adds an array of strings. */
	JsonWriter strings(String name, List<String> values) {
		name(name);
		this.builder.append('[');
		for (int i = 0; i < values.size(); i++) {
			if (i > 0) {
				this.builder.append(',');
			}
			appendString(this.builder, values.get(i));
		}
		this.builder.append(']');
		return this;
	}

	/** Closes the object and returns it as bytes, ASCII and therefore also UTF-8. */
	byte[] toBytes() {
		return this.builder.append('}').toString().getBytes(StandardCharsets.US_ASCII);
	}

	private void name(String name) {
		if (!this.first) {
			this.builder.append(',');
		}
		this.first = false;
		appendString(this.builder, name);
		this.builder.append(':');
	}

	/** Appends {@code value} as a quoted, escaped JSON string. */
	static StringBuilder appendString(StringBuilder builder, String value) {
		builder.append('"');
		int length = value.length();
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			switch (c) {
				case '"' -> builder.append("\\\"");
				case '\\' -> builder.append("\\\\");
				case '\n' -> builder.append("\\n");
				case '\r' -> builder.append("\\r");
				case '\t' -> builder.append("\\t");
				case '\b' -> builder.append("\\b");
				case '\f' -> builder.append("\\f");
				case '<', '>', '&' -> appendUnicodeEscape(builder, c);
				default -> {
					if (c >= 0x20 && c < 0x7F) {
						builder.append(c);
					}
					else if (Character.isHighSurrogate(c) && i + 1 < length
							&& Character.isLowSurrogate(value.charAt(i + 1))) {
						appendUnicodeEscape(builder, c);
						appendUnicodeEscape(builder, value.charAt(++i));
					}
					else if (Character.isSurrogate(c)) {
						appendUnicodeEscape(builder, '\uFFFD');
					}
					else {
						appendUnicodeEscape(builder, c);
					}
				}
			}
		}
		return builder.append('"');
	}

	private static void appendUnicodeEscape(StringBuilder builder, char c) {
		builder.append("\\u")
			.append(HEX[(c >> 12) & 0xF])
			.append(HEX[(c >> 8) & 0xF])
			.append(HEX[(c >> 4) & 0xF])
			.append(HEX[c & 0xF]);
	}

}
