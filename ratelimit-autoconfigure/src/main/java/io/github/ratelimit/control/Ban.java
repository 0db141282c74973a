package io.github.ratelimit.control;

import java.time.Instant;

/**
 * A caller shut out until a time.
 *
 * @param subject whom: {@code user:<name>}, {@code key:<token id>} or
 * {@code ip:<client group>}
 * @param until when the ban ends
 * @param offence which ban of the subject this is (1 for the first; each repeat lasts
 * twice as long)
 */
public record Ban(String subject, Instant until, int offence) {

	/** Whether the ban still holds at {@code nowMillis}. */
	public boolean active(long nowMillis) {
		return this.until.toEpochMilli() > nowMillis;
	}

	/** Whole seconds until the ban ends, rounded up, at least 1. */
	public long secondsLeft(long nowMillis) {
		return Math.max(1, (this.until.toEpochMilli() - nowMillis + 999) / 1000);
	}

}
