package io.github.ratelimit.storage.memory;

import java.util.concurrent.atomic.AtomicBoolean;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;

/**
 * The permits an admitted request took, one per check that holds one. Each goes back to
 * the entry it was taken from, even when the map has replaced that entry since, so a
 * count is never driven below zero; and only once, however often the request releases.
 */
final class HeldPermits implements Permits {

	private final InMemoryRateLimitStore store;

	private final CountingEntry[] entries;

	private final LimitCheck[] checks;

	private final AtomicBoolean released = new AtomicBoolean();

	HeldPermits(InMemoryRateLimitStore store, Attempt[] attempts) {
		this.store = store;
		int held = 0;
		for (Attempt attempt : attempts) {
			held += attempt.holdsPermit() ? 1 : 0;
		}
		this.entries = new CountingEntry[held];
		this.checks = new LimitCheck[held];
		int i = 0;
		for (Attempt attempt : attempts) {
			if (attempt.holdsPermit()) {
				this.entries[i] = (CountingEntry) attempt.entry;
				this.checks[i++] = attempt.check;
			}
		}
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			for (int i = 0; i < this.entries.length; i++) {
				this.store.release(this.entries[i], this.checks[i]);
			}
		}
	}

}
