package io.github.ratelimit.client;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The {@link HostState} of at most {@code capacity} hosts; the least recently used is
 * dropped, so a client that calls many hosts cannot grow without bound. Thread-safe.
 */
final class HostStates {

	private final Map<String, HostState> states;

	HostStates(int capacity) {
		this.states = new LinkedHashMap<>(16, 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, HostState> eldest) {
				return size() > capacity;
			}

		};
	}

	/** The state of a host, or {@code null} when nothing is remembered of it. */
	@Nullable HostState find(String host) {
		synchronized (this.states) {
			return this.states.get(host);
		}
	}

	/** The state of a host, created when needed. */
	HostState get(String host) {
		synchronized (this.states) {
			return this.states.computeIfAbsent(host, (key) -> new HostState());
		}
	}

	int size() {
		synchronized (this.states) {
			return this.states.size();
		}
	}

}
