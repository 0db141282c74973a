package io.github.ratelimit.http;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import org.jspecify.annotations.Nullable;

/**
 * Request ids for {@code X-Request-Id}: the caller's own id when it is a sane token, so
 * that a client and a support engineer can quote the same id, else a fresh one. A sane id
 * is 1 to {@value #MAX_LENGTH} characters of {@code A-Z a-z 0-9 . _ ~ : + / = -}: that
 * keeps ids that came from a proxy, a UUID or base64, and keeps out anything that could
 * split a header, forge a log line or bloat a log.
 * <p>
 * Generated ids are 16 lower-case hex digits of 64 random bits from
 * {@link ThreadLocalRandom}: cheap, unique enough to correlate logs (a collision is
 * expected after about 4 billion ids), and not secret, so a cryptographic generator would
 * only cost time.
 */
public final class RequestIds {

	/** The request and response header that carries the id. */
	public static final String HEADER = "X-Request-Id";

	/** The longest caller id that is kept. */
	public static final int MAX_LENGTH = 128;

	private static final HexFormat HEX = HexFormat.of();

	private RequestIds() {
	}

	/**
	 * Returns the caller's id when it is sane, else a fresh one.
	 * @param incoming the caller's {@code X-Request-Id}, or {@code null}
	 * @return an id that is safe in headers, logs and JSON
	 */
	public static String sanitizeOrGenerate(@Nullable String incoming) {
		return isSane(incoming) ? incoming : generate();
	}

	/** Whether {@code id} may be echoed as it is. */
	public static boolean isSane(@Nullable String id) {
		if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
			return false;
		}
		for (int i = 0; i < id.length(); i++) {
			if (!isAllowed(id.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/** A fresh id: 16 lower-case hex digits. */
	public static String generate() {
		return HEX.toHexDigits(ThreadLocalRandom.current().nextLong());
	}

	private static boolean isAllowed(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
				|| c == '~' || c == ':' || c == '+' || c == '/' || c == '=' || c == '-';
	}

}
