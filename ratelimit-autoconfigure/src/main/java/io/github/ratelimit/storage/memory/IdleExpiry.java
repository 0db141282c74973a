package io.github.ratelimit.storage.memory;

import java.time.Clock;

import com.github.benmanes.caffeine.cache.Expiry;

/**
 * When Caffeine drops an entry: as its state says (an idle bucket once it would be full
 * again, a quota when its period ends, never while it holds permits).
 */
final class IdleExpiry implements Expiry<String, Entry> {

	private final Clock clock;

	IdleExpiry(Clock clock) {
		this.clock = clock;
	}

	@Override
	public long expireAfterCreate(String key, Entry entry, long currentTime) {
		return entry.idleNanosAfterCreate(this.clock);
	}

	@Override
	public long expireAfterUpdate(String key, Entry entry, long currentTime, long currentDuration) {
		return entry.idleNanosAfterUpdate(this.clock);
	}

	@Override
	public long expireAfterRead(String key, Entry entry, long currentTime, long currentDuration) {
		return entry.idleNanosAfterRead(this.clock, currentDuration);
	}

}
