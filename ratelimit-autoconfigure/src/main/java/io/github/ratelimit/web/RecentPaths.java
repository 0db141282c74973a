package io.github.ratelimit.web;

import org.jspecify.annotations.Nullable;

/**
 * What was worked out for recently seen request paths (a parsed path, a classification),
 * so that the busy paths of an application are parsed and matched against the rules once
 * rather than on every request. Keyed by two strings (a method or a context path, and the
 * raw path); the value must be a pure function of them and immutable.
 * <p>
 * A fixed table of {@value #SLOTS} slots, each keeping the last path that hashed to it:
 * no eviction bookkeeping, no lock, and a flood of distinct paths costs misses, never
 * memory. Slots are written without synchronization: each holds an immutable entry whose
 * fields are final, so a reader sees a whole entry or another one, never a mix.
 *
 * @param <V> what is remembered per path
 */
public final class RecentPaths<V> {

	static final int SLOTS = 512;

	// a longer path is looked up and worked out every time: the table holds at most
	// SLOTS short strings, whatever the paths an attacker sends
	static final int MAX_PATH_LENGTH = 256;

	private final Entry<V>[] slots;

	/** Creates an empty table. */
	@SuppressWarnings("unchecked")
	public RecentPaths() {
		this.slots = new Entry[SLOTS];
	}

	/**
	 * What was remembered for the path, or {@code null}.
	 * @param scope the method, or the context path
	 * @param path the raw path
	 * @return the value, or {@code null} when the path is not remembered
	 */
	public @Nullable V find(String scope, String path) {
		Entry<V> entry = this.slots[slot(scope, path)];
		return (entry != null && entry.path.equals(path) && entry.scope.equals(scope)) ? entry.value : null;
	}

	/**
	 * Remembers a value for the path, in place of whatever shared its slot.
	 * @param scope the method, or the context path
	 * @param path the raw path
	 * @param value the value, a pure function of the two
	 */
	public void remember(String scope, String path, V value) {
		if (path.length() <= MAX_PATH_LENGTH) {
			this.slots[slot(scope, path)] = new Entry<>(scope, path, value);
		}
	}

	private static int slot(String scope, String path) {
		int hash = path.hashCode() * 31 + scope.hashCode();
		return (hash ^ (hash >>> 16)) & (SLOTS - 1);
	}

	private record Entry<V>(String scope, String path, V value) {
	}

}
