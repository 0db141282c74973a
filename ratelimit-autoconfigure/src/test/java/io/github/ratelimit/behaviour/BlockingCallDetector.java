package io.github.ratelimit.behaviour;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingMethod;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * BlockHound for the reactive tests: once installed (for the rest of the JVM; it cannot
 * be removed), a blocking call on a non-blocking thread (Netty event loops, including
 * Lettuce's, and Reactor's parallel scheduler) is recorded here, and every test fails
 * that caught one ({@link BlockingCallsChecked}, registered for all tests), but for a
 * negative test that {@link #acknowledge() acknowledges} the calls it made on purpose.
 * <p>
 * It is recorded, not thrown: an error thrown from inside a library's lock (Lettuce's,
 * the JDK's timer queue) left the lock held and hung every later test; the call goes on
 * and the test fails when it ends.
 * <p>
 * What is allowed to block is listed in {@link Allowances}: short locks inside Netty,
 * Lettuce and the JDK, none of them ours and none a wait on I/O. Each was caught here
 * first; nothing is allowed on a guess.
 * <p>
 * Needs {@code -XX:+AllowRedefinitionToAddDeleteMethods} on JDK 13 and later (see the
 * surefire configuration).
 */
public final class BlockingCallDetector {

	private static final List<String> violations = new CopyOnWriteArrayList<>();

	// the calls before this index were acknowledged as made on purpose
	private static volatile int acknowledged;

	private static boolean installed;

	private BlockingCallDetector() {
	}

	/**
	 * Installs BlockHound, once per JVM, with the integrations on the class path and the
	 * allowances below.
	 */
	public static synchronized void install() {
		if (installed) {
			return;
		}
		BlockHound.builder()
			.loadIntegrations(new Allowances())
			.blockingMethodCallback(BlockingCallDetector::blocked)
			.install();
		installed = true;
	}

	/**
	 * How many blocking calls were caught so far: pass it to {@link #caughtSince(int)}.
	 */
	public static int mark() {
		return violations.size();
	}

	/**
	 * The blocking calls caught since {@code mark}, each as "method on thread", then
	 * where it was called.
	 */
	public static List<String> caughtSince(int mark) {
		return List.copyOf(violations.subList(mark, violations.size()));
	}

	/**
	 * The blocking calls caught since {@code mark} that no test acknowledged as made on
	 * purpose.
	 */
	static List<String> unexpectedSince(int mark) {
		return caughtSince(Math.max(mark, Math.min(acknowledged, violations.size())));
	}

	/**
	 * For a test that blocks on purpose: the calls caught so far are expected, and fail
	 * no test.
	 */
	public static void acknowledge() {
		acknowledged = violations.size();
	}

	/** Whether BlockHound watches this JVM. */
	static synchronized boolean installed() {
		return installed;
	}

	private static void blocked(BlockingMethod method) {
		StackTraceElement[] frames = new Throwable().getStackTrace();
		if (idlePoolWorker(frames)) {
			return;
		}
		StringBuilder caught = new StringBuilder().append(method)
			.append(" on ")
			.append(Thread.currentThread().getName());
		for (int i = 0; i < Math.min(frames.length, 40); i++) {
			caught.append("\n\tat ").append(frames[i]);
		}
		violations.add(caught.toString());
		System.err.println("BlockHound caught " + caught);
	}

	// A Reactor scheduler thread started before BlockHound was installed (by a test run
	// earlier in the JVM) idles in a ThreadPoolExecutor.getTask frame entered before, so
	// BlockHound's allowance of that idle wait does not cover it and it is caught when it
	// parks again. Waiting for the next task is not work that blocks; throwing there
	// breaks the pool's queue lock and hangs every later delay of the scheduler.
	private static boolean idlePoolWorker(StackTraceElement[] frames) {
		for (int i = 0; i < frames.length - 1; i++) {
			if (frames[i].getClassName().equals("java.util.concurrent.ThreadPoolExecutor")
					&& frames[i].getMethodName().equals("getTask")
					&& frames[i + 1].getMethodName().equals("runWorker")) {
				// nothing of a task runs between the worker loop and the park
				return frames[i - 1].getClassName().startsWith("java.util.concurrent.");
			}
		}
		return false;
	}

	/** What may block on a non-blocking thread in these tests, and why. */
	private static final class Allowances implements BlockHoundIntegration {

		@Override
		public void applyTo(BlockHound.Builder builder) {
			// Netty 4.2's buffer allocator takes a short internal lock when it grows its
			// pools under contention:
			// not a wait on I/O, and not ours (the application's response encoder
			// allocates there too)
			builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup",
					"tryExpandMagazines");
			// Lettuce lets the threads that write to one shared connection take turns
			// with a ReentrantLock
			// (SharedLock): a short wait by design, on its own I/O threads too. Throwing
			// from inside it leaves the
			// lock broken for good (every later writer spins), so it must be allowed, not
			// merely reported.
			for (String method : new String[] { "incrementWriters", "lockWritersExclusive", "doExclusive" }) {
				builder.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", method);
			}
			// Lettuce's Cluster connection provider records a node's write connection
			// under a short ReentrantLock when a slot is first written to (concurrent
			// first
			// writes to one node meet there): bookkeeping of an established connection,
			// not a wait on I/O
			for (String method : new String[] { "getWriteConnection", "lambda$getWriteConnection$1" }) {
				builder.allowBlockingCallsInside("io.lettuce.core.cluster.PooledClusterConnectionProvider", method);
			}
			// ...and, when a failover reconnects a node, under the same kind of lock
			// once the new connection is up (caught in RedisFailoverTests; throwing there
			// left the lock held and hung every later cluster connect)
			builder.allowBlockingCallsInside(
					"io.lettuce.core.cluster.PooledClusterConnectionProvider$NodeConnectionPostProcessor",
					"lambda$apply$4");
			// Lettuce's sync facade caches its method lookups under a short
			// ReentrantLock;
			// its reconnect through Sentinel builds one on its own event thread (caught
			// in
			// RedisFailoverTests)
			builder.allowBlockingCallsInside("io.lettuce.core.internal.AbstractInvocationHandler$MethodTranslator",
					"of");
			// CompletableFuture.orTimeout, which bounds every Redis decision, puts a task
			// on the JDK's timer queue and
			// takes it off when the decision completes in time; the queue has a short
			// lock. Throwing from inside it
			// leaves Bucket4j's batched waiters uncompleted (they time out).
			for (String method : new String[] { "offer", "remove" }) {
				builder.allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue",
						method);
			}

		}

	}

}
