package io.github.ratelimit.storage;

/**
 * The concurrency permits an admitted request holds, to be given back once when its
 * response is done. Implementations are idempotent and never block or throw: a store that
 * cannot reach its backend lets the permit's lease expire.
 */
@FunctionalInterface
public interface Permits {

	/** Holds nothing. */
	Permits NONE = () -> {
	};

	/** Gives the permits back. */
	void release();

}
