package io.github.ratelimit.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How often this instance decided one bucket in the current second, and in the one
 * before: what makes a bucket hot ({@link HotKeyReserves}).
 */
final class BucketHeat {

	volatile long second;

	final AtomicLong count = new AtomicLong();

	volatile long previous;

	BucketHeat(long second) {
		this.second = second;
	}

	long count(long now) {
		if (now != this.second) {
			synchronized (this) {
				if (now != this.second) {
					this.previous = (now == this.second + 1) ? this.count.get() : 0;
					this.count.set(0);
					this.second = now;
				}
			}
		}
		return Math.max(this.count.incrementAndGet(), this.previous);
	}

}
