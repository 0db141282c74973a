package io.github.ratelimit.storage.redis.script;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.StoreDecision;

/**
 * The bucket script ({@value #RESOURCE}): its text and digest, the arguments it takes for
 * a list of checks or of leases, and the reading of its reply. The script's header
 * documents both.
 */
final class TokenBucketScript {

	/** Where the script is, on the classpath. */
	static final String RESOURCE = "META-INF/ratelimit/token-buckets.lua";

	/** The lease id of a request that takes no permit. */
	static final byte[] NO_LEASE = new byte[0];

	private static final byte[] DECIDE = bytes("decide");

	private static final byte[] REFUND = bytes("refund");

	private static final byte[] RELEASE = bytes("release");

	private static final byte[] RENEW = bytes("renew");

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

	private final byte[] leaseMillis;

	private final LongSupplier wallClock;

	private final Map<Policy, ScriptShape> shapes = new ConcurrentHashMap<>();

	/**
	 * Loads the script.
	 * @param leaseTime how long a permit stays leased unless renewed
	 * @param wallClock this JVM's time in epoch ms, that calendar quotas and fixed
	 * windows name their periods by (the script picks among them by its own)
	 */
	TokenBucketScript(Duration leaseTime, LongSupplier wallClock) {
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
		this.leaseMillis = number(leaseTime.toMillis());
		this.wallClock = wallClock;
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

	/** The permits of a check's concurrency cap, 0 when it has none. */
	long permits(LimitCheck check) {
		return shape(check.policy()).permits();
	}

	/**
	 * The arguments that decide requests (or give back what they took), one after the
	 * other in one call.
	 * @param requests the requests, in the order of their keys
	 * @param refund whether to give back rather than decide
	 * @param nowMillis the time to use, or a negative number for the server's clock
	 */
	byte[][] arguments(List<Request> requests, boolean refund, long nowMillis) {
		// one wall time for the call, so that a key used twice gets one period
		long wallMillis = (nowMillis < 0) ? this.wallClock.getAsLong() : nowMillis;
		int count = 4;
		for (Request request : requests) {
			count += 2;
			for (LimitCheck check : request.checks()) {
				count += 3 + shape(check.policy()).size();
			}
		}
		byte[][] arguments = new byte[count][];
		int a = header(arguments, refund ? REFUND : DECIDE, nowMillis, requests.size());
		for (Request request : requests) {
			arguments[a++] = request.leaseId();
			arguments[a++] = number(request.checks().size());
			for (LimitCheck check : request.checks()) {
				arguments[a++] = number(check.cost());
				arguments[a++] = check.enforced() ? ENFORCED : OBSERVED;
				arguments[a++] = number(check.enforced() ? check.maxWaitMillis() : 0);
				a = shape(check.policy()).write(arguments, a, wallMillis);
			}
		}
		return arguments;
	}

	/**
	 * The arguments that give leased permits back or renew them; the keys are those of
	 * the leases.
	 * @param leases the leases, one per key
	 * @param renew whether to renew rather than release
	 * @param nowMillis the time to use, or a negative number for the server's clock
	 */
	byte[][] leaseArguments(List<Lease.Held> leases, boolean renew, long nowMillis) {
		byte[][] arguments = new byte[4 + 2 * leases.size()][];
		int a = header(arguments, renew ? RENEW : RELEASE, nowMillis, leases.size());
		for (Lease.Held held : leases) {
			arguments[a++] = held.leaseId();
			arguments[a++] = number(held.permits());
		}
		return arguments;
	}

	private int header(byte[][] arguments, byte[] mode, long nowMillis, int count) {
		arguments[0] = mode;
		arguments[1] = (nowMillis < 0) ? SERVER_TIME : number(nowMillis);
		arguments[2] = this.leaseMillis;
		arguments[3] = number(count);
		return 4;
	}

	/**
	 * Reads the decision of one request from the script's reply.
	 * @param reply the reply: integers, as the script's header describes
	 * @param from where the request's part of the reply starts
	 * @param checks the request's checks
	 * @return the request's decision (holding no permit: the store adds its lease), and
	 * where the next request's part starts
	 */
	static Read read(List<Object> reply, int from, List<LimitCheck> checks) {
		int r = from;
		if (reply.size() < r + 2) {
			throw tooFew(reply);
		}
		boolean admitted = number(reply.get(r++)) == 1;
		long waitMillis = number(reply.get(r++));
		CheckResult[] results = new CheckResult[checks.size()];
		for (int i = 0; i < results.length; i++) {
			int bandwidths = checks.get(i).policy().limit().bandwidths().size();
			if (reply.size() < r + 1 + 4 * bandwidths) {
				throw tooFew(reply);
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
		return new Read(new StoreDecision(admitted, List.of(results), waitMillis, Permits.NONE), r);
	}

	private static IllegalStateException tooFew(List<Object> reply) {
		return new IllegalStateException("The rate-limit script answered " + reply.size() + " values, too few");
	}

	private ScriptShape shape(Policy policy) {
		ScriptShape shape = this.shapes.get(policy);
		return (shape != null) ? shape : this.shapes.computeIfAbsent(policy, (key) -> new ScriptShape(key.limit()));
	}

	private static long number(Object value) {
		if (value instanceof Long number) {
			return number;
		}
		throw new IllegalStateException("The rate-limit script answered " + value + " where a number belongs");
	}

	static byte[] number(long value) {
		return (value >= 0 && value < SMALL_NUMBERS.length) ? SMALL_NUMBERS[(int) value] : bytes(Long.toString(value));
	}

	static byte[] bytes(String value) {
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

	/**
	 * The checks of one request and the id of the lease its permits are taken under.
	 *
	 * @param checks the checks
	 * @param leaseId unique among every instance's requests; {@link #NO_LEASE} when no
	 * check takes a permit
	 */
	record Request(List<LimitCheck> checks, byte[] leaseId) {
	}

	/**
	 * One request's part of a reply.
	 *
	 * @param decision the request's decision
	 * @param end where the next request's part starts
	 */
	record Read(StoreDecision decision, int end) {
	}

}
