package io.github.ratelimit.storage.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.TokenBucket;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;

/**
 * The token-bucket script ({@value #RESOURCE}): its text and digest, the arguments it takes for a list
 * of checks, and the reading of its reply. The script's header documents both.
 */
final class TokenBucketScript {

	/** Where the script is, on the classpath. */
	static final String RESOURCE = "META-INF/ratelimit/token-buckets.lua";

	private static final byte[] DECIDE = bytes("decide");

	private static final byte[] REFUND = bytes("refund");

	private static final byte[] SERVER_TIME = new byte[0];

	private static final byte[] ENFORCED = bytes("1");

	private static final byte[] OBSERVED = bytes("0");

	private static final byte[][] SMALL_NUMBERS = new byte[101][];

	static {
		for (int i = 0; i < SMALL_NUMBERS.length; i++) {
			SMALL_NUMBERS[i] = bytes(Integer.toString(i));
		}
	}

	private final byte[] text;

	private final String digest;

	/** Per policy: bandwidth count, then capacity, refill tokens and period of each bandwidth. */
	private final Map<Policy, byte[][]> shapes = new ConcurrentHashMap<>();

	TokenBucketScript() {
		try (InputStream in = TokenBucketScript.class.getClassLoader().getResourceAsStream(RESOURCE)) {
			if (in == null) {
				throw new IllegalStateException("Missing " + RESOURCE + " on the classpath");
			}
			this.text = in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.digest = sha1(this.text);
	}

	/** The script's text, for EVAL. */
	byte[] text() {
		return this.text;
	}

	/** The script's SHA-1, for EVALSHA. */
	String digest() {
		return this.digest;
	}

	/** The keys of the checks, in order. */
	static byte[][] keys(List<LimitCheck> checks) {
		byte[][] keys = new byte[checks.size()][];
		for (int i = 0; i < keys.length; i++) {
			keys[i] = bytes(checks.get(i).key());
		}
		return keys;
	}

	/**
	 * The arguments that decide requests (or give their tokens back), one after the other in one call.
	 * @param requests the checks of each request, in the order of their keys
	 * @param refund whether to give the cost back rather than decide
	 * @param nowMillis the time to use, or a negative number for the server's clock
	 */
	byte[][] arguments(List<List<LimitCheck>> requests, boolean refund, long nowMillis) {
		int count = 3;
		for (List<LimitCheck> checks : requests) {
			count += 1;
			for (LimitCheck check : checks) {
				count += 2 + shape(check.policy()).length;
			}
		}
		byte[][] arguments = new byte[count][];
		int a = 0;
		arguments[a++] = refund ? REFUND : DECIDE;
		arguments[a++] = (nowMillis < 0) ? SERVER_TIME : number(nowMillis);
		arguments[a++] = number(requests.size());
		for (List<LimitCheck> checks : requests) {
			arguments[a++] = number(checks.size());
			for (LimitCheck check : checks) {
				byte[][] shape = shape(check.policy());
				arguments[a++] = number(check.cost());
				arguments[a++] = check.enforced() ? ENFORCED : OBSERVED;
				System.arraycopy(shape, 0, arguments, a, shape.length);
				a += shape.length;
			}
		}
		return arguments;
	}

	/**
	 * Reads the decision of one request from the script's reply.
	 * @param reply the reply: integers, as the script's header describes
	 * @param from where the request's part of the reply starts
	 * @param checks the request's checks
	 * @return the request's decision, and where the next request's part starts
	 */
	static Read read(List<Object> reply, int from, List<LimitCheck> checks) {
		int r = from;
		if (reply.size() <= r) {
			throw new IllegalStateException("The rate-limit script answered " + reply.size() + " values, too few");
		}
		boolean admitted = number(reply.get(r++)) == 1;
		CheckResult[] results = new CheckResult[checks.size()];
		for (int i = 0; i < results.length; i++) {
			int bandwidths = checks.get(i).policy().limit().bandwidths().size();
			if (reply.size() < r + 1 + 4 * bandwidths) {
				throw new IllegalStateException("The rate-limit script answered " + reply.size() + " values, too few");
			}
			boolean had = number(reply.get(r++)) == 1;
			BandwidthResult[] found = new BandwidthResult[bandwidths];
			for (int b = 0; b < bandwidths; b++) {
				found[b] = new BandwidthResult(number(reply.get(r)), number(reply.get(r + 1)), number(reply.get(r + 2)),
						number(reply.get(r + 3)));
				r += 4;
			}
			results[i] = new CheckResult(had, List.of(found));
		}
		return new Read(new StoreDecision(admitted, List.of(results)), r);
	}

	/**
	 * One request's part of a reply.
	 *
	 * @param decision the request's decision
	 * @param end where the next request's part starts
	 */
	record Read(StoreDecision decision, int end) {
	}

	private byte[][] shape(Policy policy) {
		byte[][] shape = this.shapes.get(policy);
		return (shape != null) ? shape : this.shapes.computeIfAbsent(policy, TokenBucketScript::newShape);
	}

	private static byte[][] newShape(Policy policy) {
		List<Bandwidth> bandwidths = policy.limit().bandwidths();
		byte[][] shape = new byte[1 + 3 * bandwidths.size()][];
		shape[0] = number(bandwidths.size());
		int a = 1;
		for (Bandwidth item : bandwidths) {
			TokenBucket bandwidth = (TokenBucket) item;
			shape[a++] = number(bandwidth.capacity());
			shape[a++] = number(bandwidth.refillTokens());
			shape[a++] = number(bandwidth.period().toMillis());
		}
		return shape;
	}

	private static long number(Object value) {
		if (value instanceof Long number) {
			return number;
		}
		throw new IllegalStateException("The rate-limit script answered " + value + " where a number belongs");
	}

	private static byte[] number(long value) {
		return (value >= 0 && value < SMALL_NUMBERS.length) ? SMALL_NUMBERS[(int) value] : bytes(Long.toString(value));
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	private static String sha1(byte[] text) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
