package io.github.ratelimit.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records the waits of a blocking client and moves its clock by them, instead of
 * sleeping.
 */
final class RecordingSleeper implements Sleeper {

	private final TestClock clock;

	private final List<Duration> waits = new CopyOnWriteArrayList<>();

	RecordingSleeper(TestClock clock) {
		this.clock = clock;
	}

	@Override
	public void sleep(Duration duration) {
		this.waits.add(duration);
		this.clock.advance(duration);
	}

	List<Duration> waits() {
		return List.copyOf(this.waits);
	}

}
