package io.github.ratelimit.behaviour;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;

/**
 * Many requests at once, each on a thread of its own, released together; what they got
 * and how long they took. A request that failed (no response) counts as status
 * {@code -1}.
 */
final class ConcurrentLoad {

	private final Map<Integer, Long> statuses;

	private final long[] latencies;

	private ConcurrentLoad(Map<Integer, Long> statuses, long[] latencies) {
		this.statuses = statuses;
		this.latencies = latencies;
		Arrays.sort(this.latencies);
	}

	/**
	 * Sends {@code requests} concurrent GET requests, all from one client address.
	 * @param port the app's port
	 * @param requests how many
	 * @param path the path
	 * @param address the client address, forwarded by the trusted loopback proxy
	 * @return what happened
	 */
	static ConcurrentLoad run(int port, int requests, String path, String address) {
		return run(requests, (i) -> () -> Http.send(port, "GET", path, "X-Forwarded-For", address).status());
	}

	/**
	 * Sends {@code requests} concurrent requests.
	 * @param requests how many
	 * @param request the request of each index: sends it and answers the status
	 * @return what happened
	 */
	static ConcurrentLoad run(int requests, IntFunction<IntSupplier> request) {
		ExecutorService threads = Executors.newFixedThreadPool(requests);
		try {
			CountDownLatch ready = new CountDownLatch(requests);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<long[]>> results = new ArrayList<>();
			for (int i = 0; i < requests; i++) {
				IntSupplier send = request.apply(i);
				results.add(threads.submit(() -> {
					ready.countDown();
					go.await();
					long start = System.nanoTime();
					int status;
					try {
						status = send.getAsInt();
					}
					catch (RuntimeException ex) {
						status = -1;
					}
					return new long[] { status, System.nanoTime() - start };
				}));
			}
			ready.await();
			go.countDown();
			Map<Integer, Long> statuses = new TreeMap<>();
			long[] latencies = new long[requests];
			for (int i = 0; i < requests; i++) {
				long[] result = results.get(i).get(60, TimeUnit.SECONDS);
				statuses.merge((int) result[0], 1L, Long::sum);
				latencies[i] = result[1];
			}
			return new ConcurrentLoad(statuses, latencies);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException | java.util.concurrent.TimeoutException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			threads.shutdownNow();
		}
	}

	/** How many responses had each status. */
	Map<Integer, Long> statuses() {
		return this.statuses;
	}

	/** The 99th percentile of the latencies (nearest rank), in milliseconds. */
	double p99Millis() {
		return percentileMillis(99);
	}

	/** One line for the build's output, so stacks can be compared. */
	String report(String label) {
		return String.format("[latency %s] %d concurrent requests, statuses %s: p50 %.1f ms, p99 %.1f ms, max %.1f ms",
				label, this.latencies.length, this.statuses, percentileMillis(50), percentileMillis(99),
				this.latencies[this.latencies.length - 1] / 1e6);
	}

	private double percentileMillis(int percentile) {
		int rank = (int) Math.ceil(percentile / 100.0 * this.latencies.length);
		return this.latencies[Math.max(0, rank - 1)] / 1e6;
	}

}
