package io.github.ratelimit.core;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Typed views of decisions for assertions: each first asserts what the limiter decided.
 */
final class Decisions {

	private Decisions() {
	}

	static Decision.Allowed allowed(Decision decision) {
		return as(Decision.Allowed.class, decision);
	}

	static Decision.Rejected rejected(Decision decision) {
		return as(Decision.Rejected.class, decision);
	}

	static Decision.Blocked blocked(Decision decision) {
		return as(Decision.Blocked.class, decision);
	}

	static Decision.Banned banned(Decision decision) {
		return as(Decision.Banned.class, decision);
	}

	private static <T extends Decision> T as(Class<T> type, Decision decision) {
		assertThat(decision).isInstanceOf(type);
		return type.cast(decision);
	}

}
