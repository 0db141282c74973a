package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

/**
 * A strict parser of IP address literals, written for text an attacker controls. Unlike
 * {@link java.net.InetAddress#getByName(String)} it never looks a name up and accepts no
 * legacy forms ({@code 1.2.3}, {@code 0x7f.1}, {@code 010.1.1.1}); it allocates nothing
 * but the result and works on a region of a string, so a header need not be split into
 * substrings.
 * <p>
 * Accepted: IPv4 dotted quads without leading zeros, and IPv6 in every RFC 4291 form
 * (upper or lower case, {@code ::}, a trailing dotted quad). A <em>node</em>
 * ({@link #parseNode}) may also be an IPv6 address in brackets, carry a zone id (dropped)
 * and a port ({@code 203.0.113.7:443}, {@code [2001:db8::1]:443}).
 */
final class IpLiterals {

	/**
	 * Longer than any literal with a zone id and a port; a cheap bound on work for
	 * hostile input.
	 */
	private static final int MAX_NODE_LENGTH = 128;

	private static final int MAX_ZONE_LENGTH = 64;

	private IpLiterals() {
	}

	/**
	 * Parses an address without brackets, zone or port.
	 * @param text the text
	 * @param from the first index of the literal
	 * @param to the index after it
	 * @return the address, or {@code null} when the region is not exactly one address
	 */
	static @Nullable IpAddress parseAddress(String text, int from, int to) {
		if (from >= to || to - from > MAX_NODE_LENGTH) {
			return null;
		}
		if (indexOf(text, ':', from, to) < 0) {
			long ipv4 = parseIpv4(text, from, to);
			return (ipv4 >= 0) ? IpAddress.ofIpv4(ipv4) : null;
		}
		return parseIpv6(text, from, to);
	}

	/**
	 * Parses a node as proxies write it in {@code X-Forwarded-For} and in the {@code for}
	 * parameter of {@code Forwarded}: {@code 203.0.113.7}, {@code 203.0.113.7:443},
	 * {@code 2001:db8::1}, {@code fe80::1%eth0}, {@code [2001:db8::1]},
	 * {@code [2001:db8::1]:443}. A port may be RFC 7239's obfuscated form ({@code _abc}).
	 * {@code unknown} and obfuscated node names ({@code _hidden}) are not addresses.
	 * @param text the text
	 * @param from the first index of the node
	 * @param to the index after it
	 * @return the address, or {@code null} when the region is not a node with an address
	 */
	static @Nullable IpAddress parseNode(String text, int from, int to) {
		if (from >= to || to - from > MAX_NODE_LENGTH) {
			return null;
		}
		if (text.charAt(from) == '[') {
			int close = indexOf(text, ']', from + 1, to);
			if (close < 0 || (close + 1 < to && !isPort(text, close + 1, to))) {
				return null;
			}
			return parseIpv6WithZone(text, from + 1, close);
		}
		int colon = indexOf(text, ':', from, to);
		if (colon < 0) {
			return parseAddress(text, from, to);
		}
		if (indexOf(text, ':', colon + 1, to) < 0) {
			// exactly one colon: an IPv4 address and a port
			if (!isPort(text, colon, to)) {
				return null;
			}
			long ipv4 = parseIpv4(text, from, colon);
			return (ipv4 >= 0) ? IpAddress.ofIpv4(ipv4) : null;
		}
		// two or more colons without brackets: an IPv6 address, which cannot carry a port
		return parseIpv6WithZone(text, from, to);
	}

	private static @Nullable IpAddress parseIpv6WithZone(String text, int from, int to) {
		int percent = indexOf(text, '%', from, to);
		if (percent < 0) {
			return (indexOf(text, ':', from, to) >= 0) ? parseIpv6(text, from, to) : null;
		}
		if (!isZone(text, percent + 1, to) || indexOf(text, ':', from, percent) < 0) {
			return null;
		}
		return parseIpv6(text, from, percent);
	}

	/**
	 * Whether {@code [from, to)} is {@code ":" port}, the port decimal (at most 65535) or
	 * obfuscated.
	 */
	private static boolean isPort(String text, int from, int to) {
		if (to - from < 2 || text.charAt(from) != ':') {
			return false;
		}
		int start = from + 1;
		if (text.charAt(start) == '_') {
			return isObfuscated(text, start + 1, to);
		}
		if (to - start > 5) {
			return false;
		}
		int port = 0;
		for (int i = start; i < to; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return false;
			}
			port = port * 10 + (c - '0');
		}
		return port <= 65535;
	}

	// RFC 7239: obfport = "_" 1*(ALPHA / DIGIT / "." / "_" / "-")
	private static boolean isObfuscated(String text, int from, int to) {
		if (from >= to) {
			return false;
		}
		for (int i = from; i < to; i++) {
			char c = text.charAt(i);
			if (!isAlphaNumeric(c) && c != '.' && c != '_' && c != '-') {
				return false;
			}
		}
		return true;
	}

	// RFC 6874 allows unreserved characters in a zone id; "%25" is how a URI escapes the
	// "%" itself
	private static boolean isZone(String text, int from, int to) {
		if (from >= to || to - from > MAX_ZONE_LENGTH) {
			return false;
		}
		for (int i = from; i < to; i++) {
			char c = text.charAt(i);
			if (!isAlphaNumeric(c) && c != '.' && c != '_' && c != '-' && c != '~' && c != '%') {
				return false;
			}
		}
		return true;
	}

	/**
	 * Parses a dotted quad.
	 * @return the address as an unsigned 32-bit value, or -1
	 */
	static long parseIpv4(String text, int from, int to) {
		long value = 0;
		int parts = 0;
		int i = from;
		while (true) {
			int start = i;
			int octet = 0;
			while (i < to) {
				char c = text.charAt(i);
				if (c < '0' || c > '9') {
					break;
				}
				octet = octet * 10 + (c - '0');
				if (++i - start > 3) {
					return -1;
				}
			}
			int length = i - start;
			// a leading zero is octal to some parsers and decimal to others: refuse the
			// ambiguity
			if (length == 0 || (length > 1 && text.charAt(start) == '0') || octet > 255) {
				return -1;
			}
			value = (value << 8) | octet;
			parts++;
			if (i == to) {
				return (parts == 4) ? value : -1;
			}
			if (parts == 4 || text.charAt(i) != '.') {
				return -1;
			}
			i++;
		}
	}

	private static @Nullable IpAddress parseIpv6(String text, int from, int to) {
		if (to - from < 2) {
			return null;
		}
		int[] groups = new int[8];
		int count = 0;
		int gap = -1;
		int i = from;
		if (text.charAt(i) == ':') {
			if (text.charAt(i + 1) != ':') {
				return null;
			}
			gap = 0;
			i += 2;
		}
		while (i < to) {
			int start = i;
			int value = 0;
			while (i < to) {
				int digit = hexDigit(text.charAt(i));
				if (digit < 0) {
					break;
				}
				value = (value << 4) | digit;
				if (++i - start > 4) {
					return null;
				}
			}
			if (i < to && text.charAt(i) == '.') {
				// a trailing dotted quad fills the last two groups
				long ipv4 = parseIpv4(text, start, to);
				if (ipv4 < 0 || count > 6) {
					return null;
				}
				groups[count++] = (int) (ipv4 >>> 16);
				groups[count++] = (int) (ipv4 & 0xffff);
				break;
			}
			if (i == start || count == 8) {
				return null;
			}
			groups[count++] = value;
			if (i == to) {
				break;
			}
			if (text.charAt(i) != ':') {
				return null;
			}
			i++;
			if (i < to && text.charAt(i) == ':') {
				if (gap >= 0) {
					return null;
				}
				gap = count;
				i++;
			}
			else if (i == to) {
				return null;
			}
		}
		if ((gap < 0) ? count != 8 : count > 7) {
			// without "::" all eight groups are needed; "::" stands for at least one zero
			// group
			return null;
		}
		long high = 0;
		long low = 0;
		int zeros = 8 - count;
		for (int index = 0, source = 0; index < 8; index++) {
			int group = (gap >= 0 && index >= gap && index < gap + zeros) ? 0 : groups[source++];
			if (index < 4) {
				high = (high << 16) | group;
			}
			else {
				low = (low << 16) | group;
			}
		}
		return new IpAddress(high, low);
	}

	private static int indexOf(String text, char c, int from, int to) {
		for (int i = from; i < to; i++) {
			if (text.charAt(i) == c) {
				return i;
			}
		}
		return -1;
	}

	// not Character.digit: that also takes other scripts' digits
	private static int hexDigit(char c) {
		if (c >= '0' && c <= '9') {
			return c - '0';
		}
		if (c >= 'a' && c <= 'f') {
			return c - 'a' + 10;
		}
		if (c >= 'A' && c <= 'F') {
			return c - 'A' + 10;
		}
		return -1;
	}

	private static boolean isAlphaNumeric(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
	}

}
