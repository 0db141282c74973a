package io.github.ratelimit.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.scheduler.Scheduler;

/**
 * A scheduler that records every delay asked of it ({@code Mono.delay}), moves the test
 * clock by it and runs the task at once: a reactive client's waits, recorded and never
 * waited, also when the response that asked for them came over a real connection (where a
 * virtual-time scheduler could only be advanced after the fact).
 */
final class RecordingScheduler implements Scheduler {

	private final TestClock clock;

	private final List<Duration> delays = new CopyOnWriteArrayList<>();

	RecordingScheduler(TestClock clock) {
		this.clock = clock;
	}

	List<Duration> delays() {
		return List.copyOf(this.delays);
	}

	@Override
	public Disposable schedule(Runnable task) {
		task.run();
		return Disposables.disposed();
	}

	@Override
	public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
		Duration duration = Duration.ofNanos(unit.toNanos(delay));
		this.delays.add(duration);
		this.clock.advance(duration);
		task.run();
		return Disposables.disposed();
	}

	@Override
	public long now(TimeUnit unit) {
		return unit.convert(this.clock.millis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public Worker createWorker() {
		RecordingScheduler scheduler = this;
		return new Worker() {

			private volatile boolean disposed;

			@Override
			public Disposable schedule(Runnable task) {
				return scheduler.schedule(task);
			}

			@Override
			public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
				return scheduler.schedule(task, delay, unit);
			}

			@Override
			public void dispose() {
				this.disposed = true;
			}

			@Override
			public boolean isDisposed() {
				return this.disposed;
			}

		};
	}

	@Override
	public void init() {
	}

}
