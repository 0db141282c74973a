package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Calendar quotas reset at the boundary as Redis's clock sees it: an instance sends the
 * period its own clock is in and the next, the script picks by its time, so instances
 * whose clocks differ a little still reset together. Here the script's clock ("Redis")
 * and the instance's ("Java") are set apart.
 */
class RedisScriptCalendarQuotaTests {

	private static final long DAY = Duration.ofDays(1).toMillis();

	private final AtomicLong redisTime = new AtomicLong();

	private final AtomicLong javaTime = new AtomicLong();

	private ScriptStores stores;

	private RedisScriptRateLimitStore store;

	private LimitCheck monthly;

	@BeforeEach
	void setUp(TestInfo test) {
		this.stores = new ScriptStores(test.getTestMethod().orElseThrow().getName());
		this.store = this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME, this.redisTime::get,
				this.javaTime::get, null);
		// a month in UTC
		this.monthly = this.stores.check(this.stores.policy("1/month"), "alice");
	}

	@AfterEach
	void tearDown() throws Exception {
		this.stores.close();
	}

	@Test
	void monthEndsByRedisClockWhileThisInstanceIsStillInTheOldMonth() {
		setTimes("2030-10-31T23:59:59Z", "2030-10-31T23:59:59Z");
		assertThat(decide().admitted()).isTrue();
		assertThat(result(decide())).isEqualTo(new BandwidthResult(0, 1000, 1000, 1000));

		setTimes("2030-11-01T00:00:00.100Z", "2030-10-31T23:59:59.900Z");

		StoreDecision november = decide();
		assertThat(november.admitted()).as("reset at Redis's midnight").isTrue();
		long untilDecember = 30 * DAY - 100;
		assertThat(result(november)).isEqualTo(new BandwidthResult(0, 0, untilDecember, untilDecember));
		setTimes("2030-11-01T00:00:00.200Z", "2030-11-01T00:00:00.200Z");
		assertThat(decide().admitted()).as("the instance's clock got there: still November").isFalse();
	}

	@Test
	void monthGoesOnByRedisClockWhileThisInstanceIsInTheNextMonth() {
		setTimes("2030-10-31T23:59:59Z", "2030-10-31T23:59:59Z");
		assertThat(decide().admitted()).isTrue();

		setTimes("2030-10-31T23:59:59.900Z", "2030-11-01T00:00:00.100Z");

		StoreDecision october = decide();
		assertThat(october.admitted()).as("no reset before Redis's midnight").isFalse();
		assertThat(result(october)).isEqualTo(new BandwidthResult(0, 100, 100, 100));
		setTimes("2030-11-01T00:00:00Z", "2030-11-01T00:00:00.100Z");
		assertThat(result(decide())).isEqualTo(new BandwidthResult(0, 0, 30 * DAY, 30 * DAY));
	}

	@Test
	void instanceMoreThanAPeriodBehindStillCountsInThePeriodItNamedLast() {
		// Java says October, so it sends October and November; Redis is in December
		setTimes("2030-12-02T00:00:00Z", "2030-10-15T00:00:00Z");
		StoreDecision first = decide();
		assertThat(first.admitted()).isTrue();
		// a period's length (November's) is the best guess of the wait
		assertThat(result(first).millisUntilFull()).isEqualTo(30 * DAY);
		assertThat(decide().admitted()).isFalse();
	}

	@Test
	void quotaKeyExpiresWhenItsPeriodEnds() {
		setTimes("2030-10-31T23:59:00Z", "2030-10-31T23:59:00Z");
		decide();
		assertThat(this.stores.redis().pttl(this.monthly.key())).isPositive().isLessThanOrEqualTo(60_000);
	}

	private void setTimes(String redis, String java) {
		this.redisTime.set(Instant.parse(redis).toEpochMilli());
		this.javaTime.set(Instant.parse(java).toEpochMilli());
	}

	private StoreDecision decide() {
		return this.store.decide(List.of(this.monthly));
	}

	private static BandwidthResult result(StoreDecision decision) {
		return decision.results().get(0).bandwidths().get(0);
	}

}
