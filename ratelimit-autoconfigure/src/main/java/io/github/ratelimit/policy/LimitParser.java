package io.github.ratelimit.policy;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses limit strings: items separated by commas, or {@code 0} to block. An item is a
 * token bucket {@code N/<duration>} optionally followed by {@code burst M}; a fixed
 * window {@code N/<duration> fixed}, a sliding window {@code N/<duration> sliding} or a
 * smoothing leaky bucket {@code N/<duration> leaky} (each word may be followed by
 * {@code window} or {@code bucket}); a calendar quota {@code N/day}, {@code N/week} or
 * {@code N/month}; or a concurrency cap {@code N concurrent}. Durations are a positive
 * number and a unit ({@code ms}, {@code s}, {@code m}, {@code h}, {@code d}), the number
 * defaulting to 1 ({@code 100/m}). Runs at startup only.
 */
public final class LimitParser {

	/** A valid example, shown in error messages. */
	public static final String EXAMPLE = "50/1m, 500/1h";

	/** Beyond this a bucket's arithmetic could overflow; no real API needs more. */
	static final long MAX_TOKENS = 1_000_000_000_000L;

	private static final Pattern CONCURRENT = Pattern.compile("(\\d{1,9})\\s+concurrent");

	private static final Pattern QUOTA = Pattern.compile("(\\d{1,13})\\s*/\\s*(day|week|month)");

	private static final Pattern ITEM = Pattern.compile("(\\d{1,13})\\s*/\\s*(\\d{0,9})\\s*([a-z]+)"
			+ "(?:\\s+burst\\s+(\\d{1,13})|\\s+(fixed|sliding)(?:\\s+window)?|\\s+(leaky)(?:\\s+bucket)?)?");

	private LimitParser() {
	}

	/**
	 * Parses a limit string.
	 * @param text the configured value
	 * @return the limit
	 * @throws IllegalArgumentException with a reason a user can act on
	 */
	public static Limit parse(String text) {
		return parse(text, ZoneOffset.UTC);
	}

	/**
	 * Parses a limit string.
	 * @param text the configured value
	 * @param zone the time zone of calendar quotas
	 * @return the limit
	 * @throws IllegalArgumentException with a reason a user can act on
	 */
	public static Limit parse(String text, ZoneId zone) {
		String spec = text.trim().toLowerCase(Locale.ROOT);
		if (spec.isEmpty()) {
			throw new IllegalArgumentException("a limit must not be empty");
		}
		if (spec.equals("0")) {
			return Limit.BLOCKED;
		}
		List<Bandwidth> bandwidths = new ArrayList<>();
		List<String> normalised = new ArrayList<>();
		for (String item : spec.split(",", -1)) {
			Bandwidth bandwidth = parseItem(item.trim(), zone);
			if (bandwidth instanceof ConcurrencyLimit
					&& bandwidths.stream().anyMatch(ConcurrencyLimit.class::isInstance)) {
				throw new IllegalArgumentException("'" + item.trim() + "': a limit has at most one concurrency cap");
			}
			bandwidths.add(bandwidth);
			normalised.add(describe(bandwidth));
		}
		return new Limit(String.join(", ", normalised), bandwidths);
	}

	private static Bandwidth parseItem(String item, ZoneId zone) {
		Matcher concurrent = CONCURRENT.matcher(item);
		if (concurrent.matches()) {
			long permits = Long.parseLong(concurrent.group(1));
			if (permits < 1 || permits > ConcurrencyLimit.MAX_PERMITS) {
				throw new IllegalArgumentException("'" + item
						+ "': the number of concurrent requests must be between 1 and " + ConcurrencyLimit.MAX_PERMITS);
			}
			return new ConcurrencyLimit(permits);
		}
		Matcher quota = QUOTA.matcher(item);
		if (quota.matches()) {
			long tokens = Long.parseLong(quota.group(1));
			if (tokens < 1 || tokens > MAX_TOKENS) {
				throw new IllegalArgumentException("'" + item + "': the number of requests must be between 1 and "
						+ MAX_TOKENS + " (use 0 alone to block)");
			}
			return new CalendarQuota(tokens, CalendarPeriod.valueOf(quota.group(2).toUpperCase(Locale.ROOT)), zone);
		}
		Matcher matcher = ITEM.matcher(item);
		if (!matcher.matches()) {
			throw new IllegalArgumentException("'" + item
					+ "' is not of the form N/<duration> [burst M | fixed | sliding | leaky], N/day, N/week, "
					+ "N/month or N concurrent");
		}
		long tokens = Long.parseLong(matcher.group(1));
		long amount = matcher.group(2).isEmpty() ? 1 : Long.parseLong(matcher.group(2));
		String unit = matcher.group(3);
		if (tokens < 1 || tokens > MAX_TOKENS) {
			throw new IllegalArgumentException("'" + item + "': the number of requests must be between 1 and "
					+ MAX_TOKENS + " (use 0 alone to block)");
		}
		if (amount < 1) {
			throw new IllegalArgumentException("'" + item + "': the duration must be positive");
		}
		Duration period = switch (unit) {
			case "ms" -> Duration.ofMillis(amount);
			case "s" -> Duration.ofSeconds(amount);
			case "m" -> Duration.ofMinutes(amount);
			case "h" -> Duration.ofHours(amount);
			case "d" -> Duration.ofDays(amount);
			default -> throw new IllegalArgumentException("'" + item + "': unknown duration unit '" + unit
					+ "' (use ms, s, m, h or d, or N/day, N/week, N/month for a calendar quota)");
		};
		if (period.toMillis() < 1) {
			throw new IllegalArgumentException("'" + item + "': the duration must be at least 1ms");
		}
		String label = amount + unit;
		if (tokens > TokenBucket.MAX_TOKEN_MILLIS / period.toMillis()) {
			throw new IllegalArgumentException("'" + item + "': too many requests for so long a window: requests x "
					+ "window in ms must stay below 2^53 (up to about 100 million a day)");
		}
		if (matcher.group(5) != null) {
			return "fixed".equals(matcher.group(5)) ? new FixedWindow(tokens, period, label)
					: new SlidingWindow(tokens, period, label);
		}
		if (matcher.group(6) != null) {
			// a backlog is due while it is under a millisecond: up to max-wait + 1 ms
			// queued
			if (tokens > TokenBucket.MAX_TOKEN_MILLIS / (period.toMillis() + LeakyBucket.MAX_WAIT_MILLIS + 1)) {
				throw new IllegalArgumentException("'" + item + "': too high a rate for a leaky bucket: requests x "
						+ "(period + 30s of max-wait) in ms must stay below 2^53");
			}
			return new LeakyBucket(tokens, period, label);
		}
		long capacity = tokens;
		if (matcher.group(4) != null) {
			capacity = Long.parseLong(matcher.group(4));
			if (capacity < tokens || capacity > MAX_TOKENS) {
				throw new IllegalArgumentException(
						"'" + item + "': burst must be at least the number of requests (" + tokens + ")");
			}
		}
		if (capacity > TokenBucket.MAX_TOKEN_MILLIS / period.toMillis()) {
			throw new IllegalArgumentException("'" + item + "': too many tokens for so long a window: tokens x window "
					+ "in ms must stay below 2^53 (up to about 100 million a day)");
		}
		return new TokenBucket(capacity, tokens, period, label);
	}

	private static String describe(Bandwidth bandwidth) {
		if (bandwidth instanceof TokenBucket bucket) {
			String text = bucket.refillTokens() + "/" + bucket.label();
			return (bucket.capacity() != bucket.refillTokens()) ? text + " burst " + bucket.capacity() : text;
		}
		if (bandwidth instanceof CalendarQuota quota) {
			return quota.quota() + "/" + quota.label();
		}
		if (bandwidth instanceof FixedWindow window) {
			return window.quota() + "/" + window.label() + " fixed";
		}
		if (bandwidth instanceof SlidingWindow window) {
			return window.quota() + "/" + window.label() + " sliding";
		}
		if (bandwidth instanceof LeakyBucket leaky) {
			return leaky.rate() + "/" + leaky.label() + " leaky";
		}
		return ((ConcurrencyLimit) bandwidth).permits() + " concurrent";
	}

}
