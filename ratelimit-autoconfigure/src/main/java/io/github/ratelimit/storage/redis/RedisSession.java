package io.github.ratelimit.storage.redis;

/**
 * One open connection of a Redis store and whatever the store built on it.
 */
interface RedisSession {

	/** Whether the connection is up (neither closed nor disconnected and reconnecting). */
	boolean isOpen();

	/** Closes the connection (never called on a request thread). */
	void close();

}
