package io.github.ratelimit.http;

/**
 * Writes sf-strings (RFC 9651 §3.3.3). Policy names come from configuration, which
 * already keeps them plain, but a header is the wrong place to trust that: a stray
 * character would make the whole field unparsable for every client.
 */
final class StructuredFieldStrings {

	private StructuredFieldStrings() {
	}

	/**
	 * Appends {@code value} as a quoted sf-string: {@code "} and {@code \} are escaped,
	 * and characters an sf-string cannot hold (controls, non-ASCII) become {@code ?}.
	 */
	static StringBuilder appendQuoted(StringBuilder builder, String value) {
		builder.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '"' || c == '\\') {
				builder.append('\\').append(c);
			}
			else if (c < 0x20 || c > 0x7E) {
				builder.append('?');
			}
			else {
				builder.append(c);
			}
		}
		return builder.append('"');
	}

	/** Returns {@code value} as a quoted sf-string. */
	static String quote(String value) {
		return appendQuoted(new StringBuilder(value.length() + 2), value).toString();
	}

}
