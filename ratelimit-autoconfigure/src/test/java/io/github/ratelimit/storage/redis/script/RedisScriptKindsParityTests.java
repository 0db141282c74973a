package io.github.ratelimit.storage.redis.script;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The script against the model's arithmetic ({@link SlidingWindow.Counts},
 * {@link LeakyBucket.Backlog}, {@link FixedWindow#window}) for many random states: each
 * case writes a bucket's state into Redis as the script keeps it (the hash fields its
 * header documents), decides one check at a random time, and compares the decision, the
 * reported numbers and the state left with what the records compute. Small and large
 * amounts, windows from 1 ms to a day, stale and future states, cost 0 (inspection),
 * enforced and observed checks.
 */
class RedisScriptKindsParityTests {

	private static final int CASES = 400;

	private static final long MAX_EXACT = 1L << 53;

	private static final long[] PERIODS = { 1, 7, 250, 1000, 60_000, 3_600_000, 86_400_000 };

	private final AtomicLong time = new AtomicLong();

	private final Random random = new Random(20301126);

	private ScriptStores stores;

	private RedisScriptRateLimitStore store;

	@BeforeEach
	void setUp(TestInfo test) {
		this.stores = new ScriptStores(test.getTestMethod().orElseThrow().getName());
		this.store = this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME, this.time::get);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.stores.close();
	}

	@Test
	void slidingWindowsDecideAsTheCountsCompute() {
		for (int i = 0; i < CASES; i++) {
			long period = period();
			long quota = amount(MAX_EXACT / period);
			LimitCheck check = check(quota + "/" + period + "ms sliding", i, cost(quota), 5000);
			SlidingWindow window = (SlidingWindow) check.policy().limit().bandwidths().get(0);
			// often right at a window's start or end, where the weights are extreme
			long now = window.windowStart(now()) + switch (this.random.nextInt(4)) {
				case 0 -> 0;
				case 1 -> period - 1;
				default -> this.random.nextLong(period);
			};
			String key = check.key();
			SlidingWindow.Counts stored = null;
			if (this.random.nextInt(5) > 0) {
				// this window, earlier ones, or (a clock that went back) the next
				long start = window.windowStart(now) - period * (this.random.nextInt(5) - 1);
				stored = new SlidingWindow.Counts(start, count(quota), count(quota));
				this.stores.redis()
					.hset(key, Map.of("s1", Long.toString(stored.start()), "n1", Long.toString(stored.current()), "v1",
							Long.toString(stored.previous())));
			}
			this.time.set(now);
			StoreDecision decision = this.store.decide(List.of(check));

			SlidingWindow.Counts found = (stored != null) ? stored.at(window, now)
					: SlidingWindow.Counts.empty(window, now);
			long cost = check.cost();
			long untilCost = found.millisUntil(window, cost, now);
			boolean has = untilCost == 0;
			boolean admitted = has || !check.enforced();
			boolean taking = admitted && has && cost > 0;
			SlidingWindow.Counts left = taking ? found.plus(cost) : found;
			String state = "case " + i + ": " + window + " at " + now + ", stored " + stored + ", " + check;
			assertThat(decision.admitted()).as(state).isEqualTo(admitted);
			assertThat(decision.waitMillis()).as(state).isZero();
			assertThat(decision.results().get(0).hadTokens()).as(state).isEqualTo(has);
			assertThat(decision.results().get(0).bandwidths().get(0)).as(state)
				.isEqualTo(new BandwidthResult(left.remaining(window, now), untilCost,
						left.millisUntilEmpty(window, now), left.millisUntil(window, cost, now)));
			if (taking) {
				assertThat(fields(key, "s1", "n1", "v1")).as(state)
					.containsExactly(left.start(), left.current(), left.previous());
			}
			else if (stored != null) {
				assertThat(fields(key, "s1", "n1", "v1")).as(state + ": unchanged")
					.containsExactly(stored.start(), stored.current(), stored.previous());
			}
			else {
				assertThat(this.stores.redis().exists(key)).as(state + ": nothing written").isZero();
			}
		}
	}

	@Test
	void leakyBucketsDecideAsTheBacklogComputes() {
		for (int i = 0; i < CASES; i++) {
			long period = period();
			long rate = amount(MAX_EXACT / (period + LeakyBucket.MAX_WAIT_MILLIS + 1));
			long now = now();
			long maxWait = this.random.nextBoolean() ? 0 : 1 + this.random.nextInt(30_000);
			LimitCheck check = check(rate + "/" + period + "ms leaky", i, cost(rate), maxWait);
			LeakyBucket bucket = (LeakyBucket) check.policy().limit().bandwidths().get(0);
			String key = check.key();
			LeakyBucket.Backlog stored = null;
			if (this.random.nextInt(5) > 0) {
				// the most the script ever keeps: a wait's worth and a period's
				long most = rate * (period + LeakyBucket.MAX_WAIT_MILLIS + 1);
				long units = this.random.nextBoolean() ? this.random.nextLong(most + 1) : rate * this.random.nextInt(3);
				// often right where the backlog drains
				long at = (this.random.nextInt(3) == 0) ? now - units / rate + this.random.nextInt(3) - 1
						: now - this.random.nextLong(-period, 3 * period + 1000);
				stored = new LeakyBucket.Backlog(units, at);
				this.stores.redis().hset(key, Map.of("l1", Long.toString(units), "a1", Long.toString(at)));
			}
			this.time.set(now);
			StoreDecision decision = this.store.decide(List.of(check));

			LeakyBucket.Backlog found = (stored != null) ? stored.at(bucket, now) : LeakyBucket.Backlog.empty(now);
			long cost = check.cost();
			long due = found.millisUntilDue(bucket);
			boolean waits = due > 0 && check.enforced() && due <= check.maxWaitMillis();
			boolean has = due == 0 || waits;
			boolean admitted = has || !check.enforced();
			boolean taking = admitted && has && cost > 0;
			LeakyBucket.Backlog left = taking ? found.plus(bucket, cost) : found;
			String state = "case " + i + ": " + bucket + " at " + now + ", stored " + stored + ", " + check;
			assertThat(decision.admitted()).as(state).isEqualTo(admitted);
			assertThat(decision.waitMillis()).as(state).isEqualTo((admitted && waits) ? due : 0);
			assertThat(decision.results().get(0).hadTokens()).as(state).isEqualTo(has);
			long dueAfter = left.millisUntilDue(bucket);
			assertThat(decision.results().get(0).bandwidths().get(0)).as(state)
				.isEqualTo(new BandwidthResult(left.remaining(bucket), due, dueAfter, dueAfter));
			if (taking) {
				assertThat(fields(key, "l1", "a1")).as(state).containsExactly(left.units(), left.atMillis());
			}
			else if (stored != null) {
				assertThat(fields(key, "l1", "a1")).as(state + ": unchanged")
					.containsExactly(stored.units(), stored.atMillis());
			}
			else {
				assertThat(this.stores.redis().exists(key)).as(state + ": nothing written").isZero();
			}
		}
	}

	@Test
	void fixedWindowsDecideAsTheirWindowsCount() {
		for (int i = 0; i < CASES; i++) {
			long period = period();
			long quota = amount(MAX_EXACT / period);
			long now = now();
			LimitCheck check = check(quota + "/" + period + "ms fixed", i, cost(quota), 5000);
			FixedWindow window = (FixedWindow) check.policy().limit().bandwidths().get(0);
			String key = check.key();
			CalendarQuota.Window current = window.window(now);
			long used = 0;
			if (this.random.nextInt(5) > 0) {
				// counted in this window, or in an earlier one
				long end = current.end() - period * this.random.nextInt(3);
				long count = count(quota);
				used = (end == current.end()) ? count : 0;
				this.stores.redis().hset(key, Map.of("1", Long.toString(count), "e1", Long.toString(end)));
			}
			this.time.set(now);
			StoreDecision decision = this.store.decide(List.of(check));

			long cost = check.cost();
			long untilEnd = current.end() - now;
			boolean has = quota - used >= cost;
			boolean admitted = has || !check.enforced();
			long usedAfter = (admitted && has) ? used + cost : used;
			String state = "case " + i + ": " + window + " at " + now + ", used " + used + ", " + check;
			assertThat(decision.admitted()).as(state).isEqualTo(admitted);
			assertThat(decision.waitMillis()).as(state).isZero();
			assertThat(decision.results().get(0).hadTokens()).as(state).isEqualTo(has);
			assertThat(decision.results().get(0).bandwidths().get(0)).as(state)
				.isEqualTo(new BandwidthResult(Math.max(0, quota - usedAfter), has ? 0 : untilEnd,
						(usedAfter > 0) ? untilEnd : 0, (quota - usedAfter < cost) ? untilEnd : 0));
			if (cost > 0 && has) {
				assertThat(fields(key, "1", "e1")).as(state).containsExactly(usedAfter, current.end());
			}
		}
	}

	/** The hash fields the script keeps (a pinned clock keeps the key 10 s at least). */
	private List<Long> fields(String key, String... names) {
		Map<String, Long> values = new HashMap<>();
		for (KeyValue<String, String> value : this.stores.redis().hmget(key, names)) {
			values.put(value.getKey(), value.hasValue() ? Long.parseLong(value.getValue()) : null);
		}
		return Arrays.stream(names).map(values::get).toList();
	}

	private LimitCheck check(String limit, int i, long cost, long maxWait) {
		Policy policy = this.stores.policy(limit);
		boolean enforced = this.random.nextInt(4) > 0;
		return new LimitCheck(policy, this.stores.check(policy, "case-" + i).key(), cost, enforced,
				enforced ? maxWait : 0);
	}

	private long period() {
		return (this.random.nextInt(4) == 0) ? 1 + this.random.nextInt(1_000_000)
				: PERIODS[this.random.nextInt(PERIODS.length)];
	}

	/** Mostly small amounts, some as large as the parser allows. */
	private long amount(long bound) {
		// the parser takes up to 10^12 requests
		long most = Math.min(bound, 1_000_000_000_001L);
		return switch (this.random.nextInt(4)) {
			case 0 -> most - 1;
			case 1 -> 1 + this.random.nextLong(Math.min(most - 1, 1_000_000_000L));
			default -> 1 + this.random.nextInt((int) Math.min(20, most - 1));
		};
	}

	/** Counted requests: mostly within the amount, some above it (a lowered limit). */
	private long count(long amount) {
		long count = (this.random.nextInt(3) == 0) ? this.random.nextLong(amount + 1)
				: this.random.nextLong(Math.min(amount, 25) + 1);
		return (this.random.nextInt(10) == 0) ? Math.min(amount, count) + this.random.nextInt(3) : count;
	}

	/** 0 (inspection) to the amount, mostly small. */
	private long cost(long amount) {
		return switch (this.random.nextInt(6)) {
			case 0 -> 0;
			case 1 -> amount;
			case 2 -> 1 + this.random.nextLong(amount);
			default -> 1 + this.random.nextInt((int) Math.min(3, amount));
		};
	}

	private long now() {
		return 1_900_000_000_000L + this.random.nextLong(1_000_000_000_000L);
	}

}
