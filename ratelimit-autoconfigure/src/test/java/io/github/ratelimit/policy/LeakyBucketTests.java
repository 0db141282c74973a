package io.github.ratelimit.policy;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.LeakyBucket.Backlog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leaky bucket's arithmetic ({@link Backlog}), which every store follows: slots of a
 * fractional length that add up exactly, waits rounded up, a backlog that drains at the
 * rate and never below zero.
 */
class LeakyBucketTests {

	private static final LeakyBucket TEN_A_SECOND = new LeakyBucket(10, Duration.ofSeconds(1), "1s");

	private static final LeakyBucket THREE_A_SECOND = new LeakyBucket(3, Duration.ofSeconds(1), "1s");

	@Test
	void aSlotIsThePeriodOverTheRateRoundedUp() {
		assertThat(TEN_A_SECOND.slotMillis()).isEqualTo(100);
		assertThat(THREE_A_SECOND.slotMillis()).isEqualTo(334);
		assertThat(new LeakyBucket(5000, Duration.ofSeconds(1), "1s").slotMillis()).isOne();
		assertThat(TEN_A_SECOND.quota()).isEqualTo(10);
		assertThat(TEN_A_SECOND.capacity()).isEqualTo(10);
		assertThat(new LeakyBucket(1, Duration.ofMillis(1500), "1500ms").windowSeconds()).isEqualTo(2);
	}

	@Test
	void aRequestQueuesItsCostInSlotsAndTheBacklogDrainsAtTheRate() {
		Backlog empty = Backlog.empty(1000);
		assertThat(empty.millisUntilDue(TEN_A_SECOND)).isZero();
		assertThat(empty.remaining(TEN_A_SECOND)).isOne();
		Backlog three = empty.plus(TEN_A_SECOND, 3);
		assertThat(three.millisUntilDue(TEN_A_SECOND)).isEqualTo(300);
		assertThat(three.remaining(TEN_A_SECOND)).isZero();
		assertThat(three.at(TEN_A_SECOND, 1250).millisUntilDue(TEN_A_SECOND)).isEqualTo(50);
		assertThat(three.at(TEN_A_SECOND, 1299).millisUntilDue(TEN_A_SECOND)).isOne();
		assertThat(three.at(TEN_A_SECOND, 1300)).isEqualTo(Backlog.empty(1300));
		// a slot less than a millisecond away is due
		Backlog third = Backlog.empty(0).plus(THREE_A_SECOND, 1).at(THREE_A_SECOND, 333);
		assertThat(third.units()).isOne();
		assertThat(third.millisUntilDue(THREE_A_SECOND)).isZero();
		assertThat(third.remaining(THREE_A_SECOND)).isOne();
		assertThat(three.at(TEN_A_SECOND, 99_000)).isEqualTo(Backlog.empty(99_000));
	}

	@Test
	void slotsOfAFractionalLengthAddUpExactly() {
		Backlog backlog = Backlog.empty(0);
		// 333 1/3 ms a slot: waits round down, the sum does not drift
		for (long expected : new long[] { 0, 333, 666, 1000, 1333, 1666, 2000 }) {
			assertThat(backlog.millisUntilDue(THREE_A_SECOND)).isEqualTo(expected);
			backlog = backlog.plus(THREE_A_SECOND, 1);
		}
		assertThat(backlog.at(THREE_A_SECOND, 2332).millisUntilDue(THREE_A_SECOND)).isOne();
		assertThat(backlog.at(THREE_A_SECOND, 2333).millisUntilDue(THREE_A_SECOND)).isZero();
	}

	@Test
	void aFloodIsLetThroughAtExactlyTheRateOverAnyLength() {
		for (LeakyBucket bucket : new LeakyBucket[] { TEN_A_SECOND, THREE_A_SECOND,
				new LeakyBucket(7, Duration.ofSeconds(1), "1s"), new LeakyBucket(1000, Duration.ofMinutes(1), "1m") }) {
			Backlog backlog = Backlog.empty(0);
			long admitted = 0;
			long seconds = 600;
			for (long t = 0; t < seconds * 1000; t++) {
				// a request every millisecond, none waits
				backlog = backlog.at(bucket, t);
				if (backlog.millisUntilDue(bucket) == 0) {
					backlog = backlog.plus(bucket, 1);
					admitted++;
				}
			}
			assertThat(admitted).as("%s", bucket)
				.isEqualTo(-Math.floorDiv(-seconds * 1000 * bucket.rate(), bucket.periodMillis()));
		}
	}

	@Test
	void waitingRequestsGetConsecutiveSlots() {
		Random random = new Random(7);
		long maxWait = 2000;
		Backlog backlog = Backlog.empty(0);
		long lastDue = -1;
		long lastArrival = 0;
		long rate = 7;
		LeakyBucket bucket = new LeakyBucket(rate, Duration.ofSeconds(1), "1s");
		long admitted = 0;
		for (long t = 0; t < 60_000; t += random.nextInt(50)) {
			backlog = backlog.at(bucket, t);
			long due = backlog.millisUntilDue(bucket);
			if (due <= maxWait) {
				// its slot: after the one before it, and slot k of the run is at k / rate
				// s
				assertThat(t + due).isGreaterThan(lastDue);
				assertThat(t + due).isEqualTo(Math.floorDiv(admitted * 1000, rate));
				lastDue = t + due;
				lastArrival = t;
				backlog = backlog.plus(bucket, 1);
				admitted++;
			}
		}
		// the queue stayed as long as the wait allows
		assertThat(lastDue).isGreaterThan(lastArrival + maxWait - 1000 / rate);
	}

	@Test
	void aGiveBackFreesSlotsButNeverMoreThanAreQueued() {
		Backlog two = Backlog.empty(0).plus(TEN_A_SECOND, 2);
		assertThat(two.minus(TEN_A_SECOND, 1).millisUntilDue(TEN_A_SECOND)).isEqualTo(100);
		assertThat(two.minus(TEN_A_SECOND, 5)).isEqualTo(Backlog.empty(0));
	}

	@Test
	void aClockThatWentBackDrainsNothing() {
		Backlog backlog = new Backlog(2000, 5000);
		assertThat(backlog.at(TEN_A_SECOND, 4000)).isSameAs(backlog);
		assertThat(backlog.at(TEN_A_SECOND, 5000)).isSameAs(backlog);
	}

	@Test
	void aLongIdleTimeDrainsWithoutOverflow() {
		LeakyBucket fast = (LeakyBucket) LimitParser.parse("300000000/1ms leaky").bandwidths().get(0);
		Backlog backlog = Backlog.empty(0).plus(fast, fast.rate());
		assertThat(backlog.millisUntilDue(fast)).isOne();
		assertThat(backlog.at(fast, Long.MAX_VALUE / 2)).isEqualTo(Backlog.empty(Long.MAX_VALUE / 2));
	}

}
