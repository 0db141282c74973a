package io.github.ratelimit.identity;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Finds the client in the chain of addresses that trusted proxies forwarded. Every proxy
 * appends the address it received the request from, so only the right end of the chain is
 * trustworthy: the walk goes right to left, skips trusted proxies, and stops at the first
 * address that is not one, which is the client. Everything left of it was written by that
 * client and is ignored.
 * <p>
 * When the walk meets something that is not an address ({@code unknown}, an obfuscated
 * node, garbage), it stops at the last trusted hop it reached (or the TCP peer): a value
 * nobody can vouch for never becomes the id, and a client cannot escape its limits by
 * sending garbage. When every hop is trusted, the leftmost one is the client.
 * <p>
 * The chain is read left to right in a single pass, keeping the answer the right-to-left
 * walk would give if every hop still to come were trusted; this needs no list of hops and
 * gives the same result.
 */
final class ForwardedChain {

	private ForwardedChain() {
	}

	/**
	 * Walks the {@code X-Forwarded-For} field lines.
	 * @param lines the field lines, in order; their comma-separated values form one chain
	 * @param trusted the trusted proxies
	 * @return the client, or {@code null} for the TCP peer
	 */
	static @Nullable IpAddress walkXForwardedFor(List<String> lines, TrustedProxies trusted) {
		IpAddress answer = null;
		for (String line : lines) {
			int length = line.length();
			int start = 0;
			while (start <= length) {
				int comma = line.indexOf(',', start);
				int end = (comma >= 0) ? comma : length;
				int from = skipWhitespace(line, start, end);
				int to = trimWhitespace(line, from, end);
				if (from < to) {
					answer = step(answer, IpLiterals.parseNode(line, from, to), trusted);
				}
				start = end + 1;
			}
		}
		return answer;
	}

	/**
	 * Walks the RFC 7239 {@code Forwarded} field lines by the {@code for} parameter of
	 * each element.
	 * @param lines the field lines, in order; their elements form one chain
	 * @param trusted the trusted proxies
	 * @return the client, or {@code null} for the TCP peer
	 */
	static @Nullable IpAddress walkForwarded(List<String> lines, TrustedProxies trusted) {
		IpAddress answer = null;
		for (String line : lines) {
			ForwardedElements elements = new ForwardedElements(line);
			while (elements.next()) {
				int from = elements.forStart();
				IpAddress hop = (from >= 0) ? IpLiterals.parseNode(line, from, elements.forEnd()) : null;
				answer = step(answer, hop, trusted);
			}
		}
		return answer;
	}

	/**
	 * One hop to the right of those seen so far.
	 * @param answer the client so far, {@code null} meaning "the next trusted hop to the
	 * right, or the peer"
	 * @param hop the hop, {@code null} when it is not an address
	 * @return the client including this hop
	 */
	private static @Nullable IpAddress step(@Nullable IpAddress answer, @Nullable IpAddress hop,
			TrustedProxies trusted) {
		if (hop == null) {
			// walking from the right, the walk stops here and keeps the trusted hop to
			// the right
			return null;
		}
		if (!trusted.contains(hop)) {
			// walking from the right, this is the first untrusted hop unless more come
			return hop;
		}
		// a trusted hop is skipped, unless the walk would stop right at its left
		return (answer != null) ? answer : hop;
	}

	private static int skipWhitespace(String text, int from, int to) {
		while (from < to && isWhitespace(text.charAt(from))) {
			from++;
		}
		return from;
	}

	private static int trimWhitespace(String text, int from, int to) {
		while (to > from && isWhitespace(text.charAt(to - 1))) {
			to--;
		}
		return to;
	}

	private static boolean isWhitespace(char c) {
		return c == ' ' || c == '\t';
	}

}
