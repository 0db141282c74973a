package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.Resource;

/**
 * Reputation lists, under {@code ratelimit.reputation}: lists of CIDR ranges (the format
 * of the common drop lists and Tor exit lists) read from files or URLs and refreshed on
 * an interval, whose addresses are refused at the gate (403, code reputation_denied) or
 * held to a tier (see docs/geo-and-reputation.md).
 */
public class ReputationProperties {

	/**
	 * The lists, by name.
	 */
	private Map<String, ListProperties> lists = new LinkedHashMap<>();

	/**
	 * The most a connect to a list's URL, and then each read, may take; a refresh that
	 * takes longer fails and keeps the last good list.
	 */
	private Duration timeout = Duration.ofSeconds(10);

	public Map<String, ListProperties> getLists() {
		return this.lists;
	}

	public void setLists(Map<String, ListProperties> lists) {
		this.lists = lists;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	/** One list. */
	public static class ListProperties {

		/**
		 * Where the list is read from: "file:/etc/ratelimit/drop.txt",
		 * "https://www.spamhaus.org/drop/drop.txt" or "classpath:...". One address or
		 * range per line; # or ; starts a comment.
		 */
		private @Nullable Resource source;

		/**
		 * The tier the list's anonymous callers are held to instead of being refused (a
		 * tier of tighter limits); unset, the list's addresses are refused.
		 */
		private @Nullable String tier;

		/**
		 * How often the list is read again.
		 */
		private Duration refreshInterval = Duration.ofHours(1);

		/**
		 * The most ranges the list may hold; a read with more is refused whole and the
		 * last good list stays.
		 */
		private int maxEntries = 100_000;

		public @Nullable Resource getSource() {
			return this.source;
		}

		public void setSource(@Nullable Resource source) {
			this.source = source;
		}

		public @Nullable String getTier() {
			return this.tier;
		}

		public void setTier(@Nullable String tier) {
			this.tier = tier;
		}

		public Duration getRefreshInterval() {
			return this.refreshInterval;
		}

		public void setRefreshInterval(Duration refreshInterval) {
			this.refreshInterval = refreshInterval;
		}

		public int getMaxEntries() {
			return this.maxEntries;
		}

		public void setMaxEntries(int maxEntries) {
			this.maxEntries = maxEntries;
		}

	}

}
