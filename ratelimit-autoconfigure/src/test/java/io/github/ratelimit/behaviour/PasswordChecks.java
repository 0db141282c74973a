package io.github.ratelimit.behaviour;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The password check of the login endpoints ({@link MvcLoginEndpoints},
 * {@link WebFluxLoginEndpoints}): the right password is {@value #RIGHT}; it counts how
 * often it ran for each user name, which is what a brute-force limit must bound.
 */
class PasswordChecks {

	static final String RIGHT = "right";

	private final Map<String, AtomicInteger> checks = new ConcurrentHashMap<>();

	boolean check(String user, String password) {
		this.checks.computeIfAbsent(user, (key) -> new AtomicInteger()).incrementAndGet();
		return RIGHT.equals(password);
	}

	/** How often the password of {@code user} was checked. */
	int checks(String user) {
		AtomicInteger count = this.checks.get(user);
		return (count != null) ? count.get() : 0;
	}

}
