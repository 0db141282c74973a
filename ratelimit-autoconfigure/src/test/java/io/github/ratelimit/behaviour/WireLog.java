package io.github.ratelimit.behaviour;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * What reached a behavioural app on the wire, before any filter of ours or of Spring
 * Security could answer: each request's method, path, client address (its
 * {@code X-Forwarded-For}) and final status. The client-side tests count here how often a
 * client really sent, and how often it was refused.
 */
final class WireLog {

	private final Queue<Entry> entries = new ConcurrentLinkedQueue<>();

	/**
	 * Records a request as it arrives.
	 * @param method the method
	 * @param path the path
	 * @param address the {@code X-Forwarded-For} header, or {@code null}
	 * @return the entry, to complete with the status
	 */
	Entry arrived(String method, String path, @Nullable String address) {
		Entry entry = new Entry(method, path, (address != null) ? address : "");
		this.entries.add(entry);
		return entry;
	}

	/**
	 * The requests a client address sent, in the order they arrived, once each has its
	 * status: a client may read a response before the server's thread has left the filter
	 * that records it.
	 * @param address the client's address
	 * @return the requests
	 */
	List<Entry> from(String address) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		List<Entry> sent = sentFrom(address);
		while (sent.stream().anyMatch((entry) -> entry.status() == 0) && System.nanoTime() < deadline) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
			sent = sentFrom(address);
		}
		return sent;
	}

	private List<Entry> sentFrom(String address) {
		return this.entries.stream().filter((entry) -> entry.address().equals(address)).toList();
	}

	/**
	 * How many requests of a client address were refused with 429.
	 * @param address the client's address
	 * @return the count
	 */
	long refused(String address) {
		return from(address).stream().filter((entry) -> entry.status() == 429).count();
	}

	/** One request on the wire. */
	static final class Entry {

		private final String method;

		private final String path;

		private final String address;

		private volatile int status;

		private Entry(String method, String path, String address) {
			this.method = method;
			this.path = path;
			this.address = address;
		}

		String method() {
			return this.method;
		}

		String path() {
			return this.path;
		}

		String address() {
			return this.address;
		}

		/** The response's status, or 0 while it is not complete. */
		int status() {
			return this.status;
		}

		void completed(int status) {
			this.status = status;
		}

		@Override
		public String toString() {
			return this.method + " " + this.path + " " + this.status;
		}

	}

}
