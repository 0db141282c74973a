package io.github.ratelimit.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * A {@code redis-server} from the {@code PATH}, run on a loopback port with persistence
 * off, in a temporary directory. Tests that need to take Redis down and bring it back
 * start their own; the shared server of {@link RedisTestServer} is one too when no other
 * Redis is available. Never flushed: tests isolate themselves with key prefixes.
 */
public final class RedisServerProcess implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);

	private final Path executable;

	private final int port;

	private final Path directory;

	private final List<String> extraArguments;

	/**
	 * Whether this is a Sentinel ({@code redis-server <config> --sentinel}) rather than a
	 * data node.
	 */
	private final boolean sentinel;

	private @Nullable Process process;

	private RedisServerProcess(Path executable, int port, List<String> extraArguments, boolean sentinel) {
		this.executable = executable;
		this.port = port;
		this.extraArguments = List.copyOf(extraArguments);
		this.sentinel = sentinel;
		try {
			this.directory = Files.createTempDirectory("ratelimit-redis-" + port + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Whether a {@code redis-server} is on the {@code PATH}. */
	public static boolean isAvailable() {
		return findExecutable().isPresent();
	}

	/**
	 * Starts a {@code redis-server} on a free loopback port and waits until it answers
	 * {@code PING}.
	 * @return the running server; close it when done
	 * @throws IllegalStateException when there is no {@code redis-server} or it does not
	 * start
	 */
	public static RedisServerProcess start() {
		return start(List.of());
	}

	/**
	 * Starts a {@code redis-server} with more arguments ({@code --cluster-enabled yes})
	 * on a free loopback port and waits until it answers {@code PING}.
	 * @param extraArguments arguments after the port, bind address and persistence
	 * settings
	 * @return the running server; close it when done
	 */
	public static RedisServerProcess start(List<String> extraArguments) {
		return start(extraArguments, false);
	}

	/**
	 * Starts a Redis Sentinel ({@code redis-server} in Sentinel mode, with a
	 * configuration file of its own that it may rewrite) on a free loopback port,
	 * monitoring nothing yet.
	 * @return the running Sentinel; close it when done
	 */
	public static RedisServerProcess startSentinel() {
		return start(List.of(), true);
	}

	private static RedisServerProcess start(List<String> extraArguments, boolean sentinel) {
		Path executable = findExecutable().orElseThrow(() -> new IllegalStateException("No redis-server on the PATH ("
				+ System.getenv("PATH") + "); install it (apt-get install redis-server)"));
		IllegalStateException failure = null;
		// the free port may be taken between probing and binding: try a few
		for (int attempt = 0; attempt < 3; attempt++) {
			RedisServerProcess server = new RedisServerProcess(executable, freePort(), extraArguments, sentinel);
			try {
				server.restart();
				return server;
			}
			catch (IllegalStateException ex) {
				server.close();
				failure = ex;
			}
		}
		throw failure;
	}

	/** The port the server listens on, the same across restarts. */
	public int port() {
		return this.port;
	}

	/** The URL of the server ({@code redis://127.0.0.1:<port>}). */
	public String url() {
		return "redis://127.0.0.1:" + this.port;
	}

	/** Whether the server process is running. */
	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Starts the server again on the same port after {@link #stop()}; does nothing while
	 * it runs.
	 */
	public synchronized void restart() {
		if (isRunning()) {
			return;
		}
		Path log = this.directory.resolve("redis.log");
		List<String> command = new java.util.ArrayList<>(List.of(this.executable.toString()));
		if (this.sentinel) {
			command.addAll(List.of(sentinelConfiguration().toString(), "--sentinel"));
		}
		command.addAll(List.of("--port", Integer.toString(this.port), "--bind", "127.0.0.1", "--dir",
				this.directory.toString()));
		if (!this.sentinel) {
			command.addAll(List.of("--save", "", "--appendonly", "no"));
		}
		command.addAll(this.extraArguments);
		try {
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not run " + command, ex);
		}
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (!RedisPing.answers("127.0.0.1", this.port)) {
			if (!this.process.isAlive() || System.nanoTime() > deadline) {
				stop();
				throw new IllegalStateException("redis-server did not start on port " + this.port + ":\n" + read(log));
			}
			pause();
		}
	}

	/**
	 * A Sentinel's configuration file: it must exist and be writable, Sentinel keeps its
	 * state in it.
	 */
	private Path sentinelConfiguration() {
		Path configuration = this.directory.resolve("sentinel.conf");
		try {
			if (!Files.exists(configuration)) {
				Files.writeString(configuration, "", StandardCharsets.UTF_8);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return configuration;
	}

	/** Stops the server and waits until it has exited; its data is gone. */
	public synchronized void stop() {
		Process running = this.process;
		if (running == null) {
			return;
		}
		running.destroy();
		try {
			if (!running.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
				running.destroyForcibly().waitFor();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			running.destroyForcibly();
		}
		this.process = null;
	}

	/**
	 * Kills the server at once ({@code SIGKILL}), as a crashed or lost host: no goodbye
	 * to its clients.
	 */
	public synchronized void crash() {
		Process running = this.process;
		if (running == null) {
			return;
		}
		try {
			running.destroyForcibly().waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.process = null;
	}

	@Override
	public void close() {
		stop();
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// a temporary directory left behind is harmless
		}
	}

	/** A loopback port nothing listens on right now. */
	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Optional<Path> findExecutable() {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		return Stream.of(path.split(java.io.File.pathSeparator))
			.filter((directory) -> !directory.isEmpty())
			.map((directory) -> Path.of(directory, "redis-server"))
			.filter(Files::isExecutable)
			.findFirst();
	}

	private static String read(Path log) {
		try {
			return Files.readString(log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	private static void pause() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for redis-server", ex);
		}
	}

}
