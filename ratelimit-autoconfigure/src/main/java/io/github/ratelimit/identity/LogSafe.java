package io.github.ratelimit.identity;

/**
 * Makes caller-controlled text (a user name from a token's {@code sub}, a tier from a
 * claim) safe inside one log line: a CR or LF would let a caller forge lines, other
 * control characters hide text in a terminal. Backslashes stay as they are, so a
 * {@code DOMAIN\\user} reads as itself.
 */
public final class LogSafe {

	private LogSafe() {
	}

	/**
	 * {@code text} on one line: control characters and line separators are escaped
	 * ({@code \n}, {@code \r}, {@code \t}, else {@code \}{@code uXXXX}).
	 */
	public static String escape(String text) {
		StringBuilder out = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			String replacement = switch (c) {
				case '\n' -> "\\n";
				case '\r' -> "\\r";
				case '\t' -> "\\t";
				default -> (Character.isISOControl(c) || c == '\u2028' || c == '\u2029')
						? String.format("\\u%04x", (int) c) : null;
			};
			if (replacement != null && out == null) {
				out = new StringBuilder(text.length() + 8).append(text, 0, i);
			}
			if (out != null) {
				if (replacement != null) {
					out.append(replacement);
				}
				else {
					out.append(c);
				}
			}
		}
		return (out != null) ? out.toString() : text;
	}

}
