package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.ControlState;
import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;

/**
 * Runtime control of one instance. Refusal counts and ban histories are bounded by
 * {@code maxSubjects} (the least recently seen are forgotten first), so a flood from rotating addresses
 * cannot exhaust the heap.
 */
public final class InMemoryControlStore implements ControlStore {

	/** How many subjects' refusal counts and ban histories are kept by default. */
	public static final long DEFAULT_MAX_SUBJECTS = 100_000;

	private final Clock clock;

	private final AtomicLong version = new AtomicLong();

	private final Map<String, LimitOverride> overrides = new ConcurrentHashMap<>();

	private final Map<String, AccessRule> rules = new ConcurrentHashMap<>();

	private final Cache<String, Counter> refusals;

	private final Cache<String, History> bans;

	public InMemoryControlStore(Clock clock) {
		this(clock, DEFAULT_MAX_SUBJECTS);
	}

	public InMemoryControlStore(Clock clock, long maxSubjects) {
		this.clock = clock;
		this.refusals = Caffeine.newBuilder().maximumSize(maxSubjects).build();
		this.bans = Caffeine.newBuilder().maximumSize(maxSubjects).build();
	}

	@Override
	public long version() {
		return this.version.get();
	}

	@Override
	public ControlState load() {
		long now = this.clock.millis();
		this.overrides.values().removeIf((override) -> override.expired(now));
		this.rules.values().removeIf((rule) -> rule.expired(now));
		Map<String, Ban> active = new HashMap<>();
		this.bans.asMap().forEach((subject, history) -> {
			if (history.forgetAt <= now) {
				this.bans.asMap().remove(subject, history);
			}
			else if (history.ban.active(now)) {
				active.put(subject, history.ban);
			}
		});
		return new ControlState(List.copyOf(this.overrides.values()), List.copyOf(this.rules.values()), active);
	}

	@Override
	public void putOverride(LimitOverride override) {
		this.overrides.put(override.dimension().key() + '\n' + override.group() + '\n' + override.id(), override);
		this.version.incrementAndGet();
	}

	@Override
	public boolean deleteOverride(Dimension dimension, String id, String group) {
		boolean deleted = this.overrides.remove(dimension.key() + '\n' + group + '\n' + id) != null;
		this.version.incrementAndGet();
		return deleted;
	}

	@Override
	public void putRule(AccessRule rule) {
		this.rules.put(rule.subject().toString(), rule);
		this.version.incrementAndGet();
	}

	@Override
	public boolean deleteRule(Subject subject) {
		boolean deleted = this.rules.remove(subject.toString()) != null;
		this.version.incrementAndGet();
		return deleted;
	}

	@Override
	public CompletableFuture<@Nullable Ban> recordRefusal(String subject, BanRule rule) {
		long now = this.clock.millis();
		Ban[] started = new Ban[1];
		this.bans.asMap().compute(subject, (key, history) -> {
			if (history != null && history.ban.active(now)) {
				return history;
			}
			Counter counter = this.refusals.get(subject, (k) -> new Counter());
			if (!counter.count(now, rule)) {
				return history;
			}
			this.refusals.invalidate(subject);
			int offence = (history != null && history.forgetAt > now) ? history.ban.offence() + 1 : 1;
			long until = now + rule.durationMillis(offence);
			started[0] = new Ban(subject, Instant.ofEpochMilli(until), offence);
			return new History(started[0], until + rule.memory().toMillis());
		});
		if (started[0] != null) {
			this.version.incrementAndGet();
		}
		return CompletableFuture.completedFuture(started[0]);
	}

	@Override
	public boolean liftBan(String subject) {
		long now = this.clock.millis();
		boolean[] active = new boolean[1];
		// ended now; the offence is remembered as long as it would have been, so a repeat still doubles
		this.bans.asMap().computeIfPresent(subject, (key, history) -> {
			active[0] = history.ban.active(now);
			return active[0] ? new History(new Ban(subject, Instant.ofEpochMilli(now), history.ban.offence()),
					history.forgetAt) : history;
		});
		this.refusals.invalidate(subject);
		this.version.incrementAndGet();
		return active[0];
	}

	/** Refusals of one subject in its current window. */
	private static final class Counter {

		private long windowEnd;

		private int count;

		/** Counts a refusal; answers whether the count reached the rule's. */
		synchronized boolean count(long now, BanRule rule) {
			if (now >= this.windowEnd) {
				this.windowEnd = now + rule.window().toMillis();
				this.count = 0;
			}
			return ++this.count >= rule.refusals();
		}

	}

	private record History(Ban ban, long forgetAt) {
	}

}
