package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.web.PermitLedger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The request lifecycle over real HTTP, the same on both stacks: what an admitted request
 * holds (concurrency permits, a waiting slot) comes back however the request ends, and
 * waiting for tokens ({@code max-wait}) admits late rather than refusing. Each test has a
 * server of its own ({@link LifecycleServer}); the store's permits are counted, and every
 * test that ends a request a new way then proves with real requests that all
 * {@value LifecycleServer#PERMITS} permits are free again.
 */
abstract class RequestLifecycleBehaviourTests {

	private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(15);

	private final Stack stack;

	private final ExecutorService clients = Executors.newCachedThreadPool();

	private @Nullable LifecycleServer server;

	RequestLifecycleBehaviourTests(Stack stack) {
		this.stack = stack;
	}

	/** Whether the buckets are in the tests' Redis rather than in memory. */
	protected boolean redis() {
		return false;
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
		this.clients.shutdownNow();
	}

	protected LifecycleServer server() {
		return server(100);
	}

	protected LifecycleServer server(int maxWaiting) {
		if (this.server == null) {
			this.server = LifecycleServer.start(this.stack, maxWaiting, redis());
		}
		return this.server;
	}

	@Test
	void permitsComeBackAfterSuccess() {
		for (int i = 0; i < 2 * LifecycleServer.PERMITS + 1; i++) {
			assertThat(get("/capped/ok").status()).isEqualTo(200);
			awaitPermitsBack();
		}
		assertAllPermitsFree();
	}

	@Test
	void permitsComeBackAfterHandlerException() {
		for (int i = 0; i < 2 * LifecycleServer.PERMITS + 1; i++) {
			assertThat(get("/capped/fail").status()).isEqualTo(500);
			awaitPermitsBack();
		}
		assertAllPermitsFree();
	}

	@Test
	void permitsComeBackWhenClientsAbortMidResponse() {
		for (int i = 0; i < 2 * LifecycleServer.PERMITS + 1; i++) {
			assertThat(abortAfterStatusLine("/capped/stream")).isEqualTo(200);
			awaitPermitsBack();
		}
		assertAllPermitsFree();
	}

	@Test
	void permitsComeBackAfterManyClientsAbortAtRandomMoments() {
		LifecycleServer server = server();
		ConcurrentLoad.run(100, (i) -> () -> switch (i % 3) {
			case 0 -> {
				Http.sendAndHangUp(server.port(), request("/capped/stream"));
				yield -1;
			}
			case 1 -> abortAfterStatusLine("/capped/stream");
			default -> abortAfter("/capped/stream", i % 25);
		});
		awaitPermitsBack();
		assertThat(server.ledger().releases()).as("every permit given back once").isEqualTo(server.ledger().taken());
		assertAllPermitsFree();
	}

	@Test
	void requestWithinMaxWaitIsAdmittedAfterWaitingAndOneBeyondItIsRefusedAtOnce() {
		LifecycleServer server = server();
		long start = System.nanoTime();
		assertThat(get("/wait/ok").status()).isEqualTo(200);
		// the bucket holds 1 and refills 1 a second: these wait about 1 s and 2 s, within
		// the 2.1 s bound
		CompletableFuture<Long> second = getAsync("/wait/ok", start);
		CompletableFuture<Long> third = getAsync("/wait/ok", start);
		await().pollInterval(Duration.ofMillis(5)).until(() -> server.limiter().waiting() == 2);
		long refusedAt = System.nanoTime();
		// would wait about 3 s
		assertThat(get("/wait/ok").status()).isEqualTo(429);
		assertThat(Duration.ofNanos(System.nanoTime() - refusedAt)).as("the refused request did not wait")
			.isLessThan(LifecycleServer.MAX_WAIT.dividedBy(2));
		// either may be decided first; lower bounds only: a slow machine makes them
		// longer, never shorter
		long sooner = Math.min(second.join(), third.join());
		long later = Math.max(second.join(), third.join());
		assertThat(Duration.ofNanos(sooner)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
		assertThat(Duration.ofNanos(later)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
		assertThat(server.limiter().waiting()).isZero();
	}

	@Test
	void requestThatWouldWaitIsRefusedAtOnceWhileTheWaitingRoomIsFull() {
		LifecycleServer server = server(1);
		long start = System.nanoTime();
		assertThat(get("/wait/ok").status()).isEqualTo(200);
		CompletableFuture<Long> waiting = getAsync("/wait/ok", start);
		await().pollInterval(Duration.ofMillis(5)).until(() -> server.limiter().waiting() == 1);
		long refusedAt = System.nanoTime();
		// would wait about 2 s, within the bound, but the one waiting slot is taken
		assertThat(get("/wait/ok").status()).isEqualTo(429);
		assertThat(Duration.ofNanos(System.nanoTime() - refusedAt)).as("the refused request did not wait")
			.isLessThan(LifecycleServer.MAX_WAIT.dividedBy(2));
		assertThat(Duration.ofNanos(waiting.join())).isGreaterThanOrEqualTo(Duration.ofMillis(900));
		assertThat(server.limiter().waiting()).isZero();
	}

	/**
	 * Proves that exactly {@value LifecycleServer#PERMITS} permits are free: that many
	 * requests are admitted at once and held in the handler, and one more is refused.
	 */
	protected void assertAllPermitsFree() {
		LifecycleServer server = server();
		List<CompletableFuture<Reply>> held = IntStream.range(0, LifecycleServer.PERMITS)
			.mapToObj((i) -> CompletableFuture.supplyAsync(() -> get("/capped/hold"), this.clients))
			.toList();
		await().atMost(RELEASE_TIMEOUT).until(() -> server.gate().holding() == LifecycleServer.PERMITS);
		assertThat(get("/capped/ok").status()).as("one request more than the permits").isEqualTo(429);
		server.gate().open();
		for (CompletableFuture<Reply> reply : held) {
			assertThat(reply.join().status()).isEqualTo(200);
		}
		awaitPermitsBack();
	}

	protected void awaitPermitsBack() {
		PermitLedger ledger = server().ledger();
		await().atMost(RELEASE_TIMEOUT).until(() -> ledger.held() <= 0);
		assertThat(ledger.held()).as("permits given back twice").isZero();
	}

	protected Reply get(String path) {
		return Http.send(server().port(), "GET", path);
	}

	// how long after start the response came, in nanoseconds
	private CompletableFuture<Long> getAsync(String path, long start) {
		return CompletableFuture.supplyAsync(() -> {
			assertThat(get(path).status()).isEqualTo(200);
			return System.nanoTime() - start;
		}, this.clients);
	}

	protected static String request(String path) {
		return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
	}

	/**
	 * Sends a request, reads the status line of its response, and hangs up with a reset.
	 */
	protected int abortAfterStatusLine(String path) {
		try (Socket socket = connect(path)) {
			String statusLine = statusLine(socket.getInputStream());
			return (statusLine != null) ? Integer.parseInt(statusLine.split(" ")[1]) : -1;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends a request and hangs up with a reset after {@code millis}, whatever came back.
	 */
	protected int abortAfter(String path, long millis) {
		try (Socket socket = connect(path)) {
			TimeUnit.MILLISECONDS.sleep(millis);
			return -1;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	/**
	 * Sends a request and leaves the connection open: closing the socket hangs up with a
	 * reset.
	 * @param path the path
	 * @return the connection
	 */
	protected Socket send(String path) {
		try {
			return connect(path);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Socket connect(String path) throws IOException {
		Socket socket = new Socket(InetAddress.getLoopbackAddress(), server().port());
		socket.setSoTimeout(30_000);
		// closing sends a reset: the client is gone at once, as a browser tab that was
		// closed
		socket.setSoLinger(true, 0);
		socket.getOutputStream().write(request(path).getBytes(StandardCharsets.ISO_8859_1));
		socket.getOutputStream().flush();
		return socket;
	}

	private static @Nullable String statusLine(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
			line.append((char) c);
		}
		return line.isEmpty() ? null : line.toString().trim();
	}

}
