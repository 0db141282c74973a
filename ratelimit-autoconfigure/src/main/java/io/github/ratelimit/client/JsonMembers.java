package io.github.ratelimit.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads the top-level members of a JSON object whose values are strings or arrays of
 * strings; other values are skipped. Enough for a problem body, without a JSON library in
 * the client's core.
 */
final class JsonMembers {

	/** Deeper nesting is not a problem body. */
	private static final int MAX_DEPTH = 32;

	private final String text;

	private int at;

	private JsonMembers(String text) {
		this.text = text;
	}

	/**
	 * The string members ({@code String}) and arrays of strings ({@code List<String>}) of
	 * a JSON object.
	 * @param text the JSON text
	 * @return the members, or {@code null} when the text is not a JSON object
	 */
	static @Nullable Map<String, Object> read(String text) {
		try {
			JsonMembers reader = new JsonMembers(text);
			Map<String, Object> members = reader.object();
			reader.whitespace();
			return (reader.at == text.length()) ? members : null;
		}
		catch (MalformedJson ex) {
			return null;
		}
	}

	private Map<String, Object> object() {
		Map<String, Object> members = new HashMap<>();
		expect('{');
		if (peek() == '}') {
			this.at++;
			return members;
		}
		while (true) {
			whitespace();
			String name = string();
			expect(':');
			char next = peek();
			if (next == '"') {
				members.putIfAbsent(name, string());
			}
			else if (next == '[') {
				List<String> strings = strings();
				if (strings != null) {
					members.putIfAbsent(name, strings);
				}
			}
			else {
				skipValue(1);
			}
			char separator = peek();
			this.at++;
			if (separator == '}') {
				return members;
			}
			if (separator != ',') {
				throw new MalformedJson();
			}
		}
	}

	/** An array of strings, or {@code null} (skipped) when it holds anything else. */
	private @Nullable List<String> strings() {
		int start = this.at;
		expect('[');
		List<String> strings = new ArrayList<>();
		if (peek() == ']') {
			this.at++;
			return strings;
		}
		while (true) {
			if (peek() != '"') {
				this.at = start;
				skipValue(1);
				return null;
			}
			strings.add(string());
			char separator = peek();
			this.at++;
			if (separator == ']') {
				return strings;
			}
			if (separator != ',') {
				throw new MalformedJson();
			}
		}
	}

	private void skipValue(int depth) {
		if (depth > MAX_DEPTH) {
			throw new MalformedJson();
		}
		char c = peek();
		if (c == '"') {
			string();
		}
		else if (c == '{' || c == '[') {
			char close = (c == '{') ? '}' : ']';
			this.at++;
			if (peek() == close) {
				this.at++;
				return;
			}
			while (true) {
				if (c == '{') {
					whitespace();
					string();
					expect(':');
				}
				skipValue(depth + 1);
				char separator = peek();
				this.at++;
				if (separator == close) {
					return;
				}
				if (separator != ',') {
					throw new MalformedJson();
				}
			}
		}
		else {
			// a number, true, false or null
			int start = this.at;
			while (this.at < this.text.length() && "{}[],: \t\r\n\"".indexOf(this.text.charAt(this.at)) < 0) {
				this.at++;
			}
			if (this.at == start) {
				throw new MalformedJson();
			}
		}
	}

	private String string() {
		expect('"');
		StringBuilder value = new StringBuilder();
		while (this.at < this.text.length()) {
			char c = this.text.charAt(this.at++);
			if (c == '"') {
				return value.toString();
			}
			if (c != '\\') {
				value.append(c);
				continue;
			}
			if (this.at >= this.text.length()) {
				break;
			}
			char escaped = this.text.charAt(this.at++);
			switch (escaped) {
				case 'b' -> value.append('\b');
				case 'f' -> value.append('\f');
				case 'n' -> value.append('\n');
				case 'r' -> value.append('\r');
				case 't' -> value.append('\t');
				case 'u' -> value.append(unicode());
				default -> value.append(escaped);
			}
		}
		throw new MalformedJson();
	}

	private char unicode() {
		if (this.at + 4 > this.text.length()) {
			throw new MalformedJson();
		}
		try {
			char c = (char) Integer.parseInt(this.text.substring(this.at, this.at + 4), 16);
			this.at += 4;
			return c;
		}
		catch (NumberFormatException ex) {
			throw new MalformedJson();
		}
	}

	private void expect(char c) {
		if (peek() != c) {
			throw new MalformedJson();
		}
		this.at++;
	}

	/** The next character after whitespace, which is not consumed. */
	private char peek() {
		whitespace();
		if (this.at >= this.text.length()) {
			throw new MalformedJson();
		}
		return this.text.charAt(this.at);
	}

	private void whitespace() {
		while (this.at < this.text.length() && " \t\r\n".indexOf(this.text.charAt(this.at)) >= 0) {
			this.at++;
		}
	}

	/** Ends reading; cheap, since it carries no stack trace. */
	private static final class MalformedJson extends RuntimeException {

		MalformedJson() {
			super(null, null, false, false);
		}

	}

}
