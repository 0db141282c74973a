package io.github.ratelimit.identity;

/**
 * Steps through the elements of one RFC 7239 {@code Forwarded} field line and finds the
 * {@code for} parameter of each, in place (no substrings): <pre>
 * Forwarded: for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"
 * </pre> An element that does not parse, has no {@code for}, has two, or has a quoted
 * {@code for} with escapes (no address needs one) is reported as having no usable node;
 * parsing then resumes after the next comma. Empty elements ({@code ,,}) are skipped, as
 * RFC 9110 asks of list recipients. Being lenient costs nothing here: white space around
 * {@code =} and unquoted values that RFC 7239 would quote (such as
 * {@code for=192.0.2.60:4711}) are accepted, since the node itself is still parsed
 * strictly.
 */
final class ForwardedElements {

	private final String line;

	private final int length;

	private int position;

	private int forStart;

	private int forEnd;

	ForwardedElements(String line) {
		this.line = line;
		this.length = line.length();
	}

	/**
	 * Moves to the next element.
	 * @return {@code false} at the end of the line
	 */
	boolean next() {
		while (this.position < this.length && isSeparator(this.line.charAt(this.position))) {
			this.position++;
		}
		if (this.position >= this.length) {
			return false;
		}
		this.forStart = -1;
		this.forEnd = -1;
		if (!parseElement()) {
			this.forStart = -1;
			skipPastComma();
		}
		else if (this.forStart < 0) {
			this.forStart = -1;
		}
		return true;
	}

	/**
	 * Where the {@code for} node of the current element starts, or -1 when it has no
	 * usable one.
	 */
	int forStart() {
		return this.forStart;
	}

	/** The index after the {@code for} node of the current element. */
	int forEnd() {
		return this.forEnd;
	}

	// forwarded-element = [ forwarded-pair ] *( ";" [ forwarded-pair ] )
	// returns false on a syntax error, leaving the position inside the element
	private boolean parseElement() {
		while (true) {
			skipWhitespace();
			if (this.position >= this.length) {
				return true;
			}
			char c = this.line.charAt(this.position);
			if (c == ',') {
				this.position++;
				return true;
			}
			if (c == ';') {
				this.position++;
				continue;
			}
			if (!parsePair()) {
				return false;
			}
		}
	}

	// forwarded-pair = token "=" value; value = token / quoted-string
	private boolean parsePair() {
		int nameStart = this.position;
		while (this.position < this.length && isTokenChar(this.line.charAt(this.position))) {
			this.position++;
		}
		int nameEnd = this.position;
		skipWhitespace();
		if (nameEnd == nameStart || this.position >= this.length || this.line.charAt(this.position) != '=') {
			return false;
		}
		this.position++;
		skipWhitespace();
		int valueStart;
		int valueEnd;
		boolean usable = true;
		if (this.position < this.length && this.line.charAt(this.position) == '"') {
			valueStart = ++this.position;
			while (this.position < this.length && this.line.charAt(this.position) != '"') {
				if (this.line.charAt(this.position) == '\\') {
					usable = false;
					this.position++;
				}
				this.position++;
			}
			if (this.position >= this.length) {
				return false;
			}
			valueEnd = this.position++;
		}
		else {
			valueStart = this.position;
			while (this.position < this.length && !isValueEnd(this.line.charAt(this.position))) {
				this.position++;
			}
			valueEnd = this.position;
		}
		skipWhitespace();
		if (this.position < this.length && !isDelimiter(this.line.charAt(this.position))) {
			return false;
		}
		if (nameEnd - nameStart == 3 && this.line.regionMatches(true, nameStart, "for", 0, 3)) {
			// -2 marks the element unusable: a second "for" makes it ambiguous
			boolean repeated = this.forStart != -1;
			this.forStart = (usable && !repeated) ? valueStart : -2;
			this.forEnd = valueEnd;
		}
		return true;
	}

	private void skipPastComma() {
		boolean quoted = false;
		while (this.position < this.length) {
			char c = this.line.charAt(this.position++);
			if (quoted && c == '\\') {
				this.position++;
			}
			else if (c == '"') {
				quoted = !quoted;
			}
			else if (c == ',' && !quoted) {
				return;
			}
		}
	}

	private void skipWhitespace() {
		while (this.position < this.length && isWhitespace(this.line.charAt(this.position))) {
			this.position++;
		}
	}

	private static boolean isSeparator(char c) {
		return c == ',' || isWhitespace(c);
	}

	private static boolean isWhitespace(char c) {
		return c == ' ' || c == '\t';
	}

	private static boolean isDelimiter(char c) {
		return c == ';' || c == ',';
	}

	private static boolean isValueEnd(char c) {
		return isDelimiter(c) || isWhitespace(c) || c == '"';
	}

	// RFC 9110 tchar
	private static boolean isTokenChar(char c) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return true;
		}
		return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
	}

}
