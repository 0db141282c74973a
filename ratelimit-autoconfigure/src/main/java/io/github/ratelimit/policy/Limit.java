package io.github.ratelimit.policy;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * A limit as configured: the items that all apply (token buckets, calendar quotas, a
 * concurrency cap; a request needs its cost from each), or blocked.
 *
 * @param spec the limit string as parsed, normalised ({@code 50/1m, 500/1h}; {@code 0}
 * when blocked)
 * @param bandwidths the bandwidths; empty when blocked
 */
public record Limit(String spec, List<Bandwidth> bandwidths) {

	/**
	 * A limit of {@code 0}: the tier may not use the group at all (403, waiting never
	 * helps).
	 */
	public static final Limit BLOCKED = new Limit("0", List.of());

	public Limit {
		bandwidths = List.copyOf(bandwidths);
	}

	/**
	 * A concurrency cap of {@code permits} requests in flight.
	 * @param permits 1 to {@value ConcurrencyLimit#MAX_PERMITS}
	 * @return the limit
	 * @throws IllegalArgumentException when {@code permits} is out of range
	 */
	public static Limit concurrent(long permits) {
		return new Limit(permits + " concurrent", List.of(new ConcurrencyLimit(permits)));
	}

	/**
	 * This limit with its calendar quotas counted in {@code zone}; the limit itself when
	 * it has none (or they count there already). Nothing is parsed again.
	 * @param zone the time zone of calendar boundaries
	 * @return the limit in that zone
	 */
	public Limit inZone(ZoneId zone) {
		boolean elsewhere = false;
		for (Bandwidth bandwidth : this.bandwidths) {
			if (bandwidth instanceof CalendarQuota quota && !quota.zone().equals(zone)) {
				elsewhere = true;
			}
		}
		if (!elsewhere) {
			return this;
		}
		List<Bandwidth> zoned = new ArrayList<>(this.bandwidths.size());
		for (Bandwidth bandwidth : this.bandwidths) {
			zoned.add((bandwidth instanceof CalendarQuota quota)
					? new CalendarQuota(quota.quota(), quota.period(), zone) : bandwidth);
		}
		return new Limit(this.spec, zoned);
	}

	/** Whether this limit blocks every request. */
	public boolean blocked() {
		return this.bandwidths.isEmpty();
	}

	/**
	 * The smallest capacity of a token bucket or quota: a request costing more can never
	 * be admitted (a request takes one concurrency permit whatever its cost).
	 */
	public long maxCost() {
		// a loop, not a stream: the planner asks on every request
		long min = Long.MAX_VALUE;
		for (Bandwidth bandwidth : this.bandwidths) {
			if (!(bandwidth instanceof ConcurrencyLimit)) {
				min = Math.min(min, bandwidth.capacity());
			}
		}
		return min;
	}

	/** Whether an item of this kind is part of the limit. */
	public boolean has(Class<? extends Bandwidth> kind) {
		for (Bandwidth bandwidth : this.bandwidths) {
			if (kind.isInstance(bandwidth)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return this.spec;
	}

}
