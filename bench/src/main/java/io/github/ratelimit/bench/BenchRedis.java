package io.github.ratelimit.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The Redis server of a benchmark: the one named by {@value #URL_ENV} when it is set
 * (bench/run.sh sets it), otherwise a {@code redis-server} of our own (from {@code PATH})
 * on a free loopback port, with nothing saved, stopped by {@link #close()} (or at the
 * latest when the JVM exits). Never the Redis on port 6379, and nothing is ever flushed:
 * benchmarks write under keys of their own.
 */
final class BenchRedis implements AutoCloseable {

	/**
	 * A Redis to use instead of starting one, such as {@code redis://127.0.0.1:41234}.
	 */
	static final String URL_ENV = "RATELIMIT_BENCH_REDIS_URL";

	private static final long START_TIMEOUT_MILLIS = 10_000;

	private static final long STOP_TIMEOUT_MILLIS = 5_000;

	private final String url;

	private final @Nullable Process process;

	private final @Nullable Path logFile;

	private final @Nullable Thread shutdownHook;

	private BenchRedis(String url, @Nullable Process process, @Nullable Path logFile) {
		this.url = url;
		this.process = process;
		this.logFile = logFile;
		if (process != null) {
			// a benchmark that dies before its tear-down must not leave the server behind
			this.shutdownHook = new Thread(() -> {
				stop(process);
				deleteLog(logFile);
			}, "bench-redis-stop");
			Runtime.getRuntime().addShutdownHook(this.shutdownHook);
		}
		else {
			this.shutdownHook = null;
		}
	}

	/** The server of {@value #URL_ENV}, or a fresh one of our own. */
	static BenchRedis startOrConnect() {
		String url = System.getenv(URL_ENV);
		if (url != null && !url.isBlank()) {
			URI uri = URI.create(url.trim());
			int port = (uri.getPort() > 0) ? uri.getPort() : 6379;
			if (port == 6379) {
				throw new IllegalStateException(URL_ENV + "=" + url
						+ ": port 6379 is refused on purpose (it may be someone's Redis); use a throwaway server");
			}
			return new BenchRedis(url.trim(), null, null);
		}
		IllegalStateException failure = null;
		for (int attempt = 0; attempt < 3; attempt++) {
			try {
				return start(freePort());
			}
			catch (IllegalStateException ex) {
				// the port was taken between the probe and the start: try another
				failure = ex;
			}
		}
		throw failure;
	}

	/** A redis:// URL of the server. */
	String url() {
		return this.url;
	}

	/** Whether the server was started here (rather than named by {@value #URL_ENV}). */
	boolean isOwn() {
		return this.process != null;
	}

	@Override
	public void close() {
		if (this.process == null) {
			return;
		}
		stop(this.process);
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// already shutting down: the hook runs anyway, harmlessly
		}
		deleteLog(this.logFile);
	}

	private static void deleteLog(@Nullable Path logFile) {
		if (logFile == null) {
			return;
		}
		try {
			Files.deleteIfExists(logFile);
		}
		catch (IOException ex) {
			// a temporary file left behind
		}
	}

	private static BenchRedis start(int port) {
		Path log;
		try {
			log = Files.createTempFile("ratelimit-bench-redis-", ".log");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot create the redis-server log file", ex);
		}
		List<String> command = List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", log.toString());
		Process process;
		try {
			process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run redis-server (is it on the PATH?): " + ex.getMessage(), ex);
		}
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException(
						"redis-server exited at start on port " + port + ": " + tailAndDelete(log));
			}
			if (ping(port)) {
				return new BenchRedis("redis://127.0.0.1:" + port, process, log);
			}
			sleep(50);
		}
		stop(process);
		throw new IllegalStateException("redis-server did not answer on port " + port + " within "
				+ START_TIMEOUT_MILLIS + " ms: " + tailAndDelete(log));
	}

	private static void stop(Process process) {
		if (!process.isAlive()) {
			return;
		}
		process.destroy();
		try {
			if (!process.waitFor(STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
				process.destroyForcibly().waitFor(STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	/** A loopback port nobody listens on now (never 6379). */
	private static int freePort() {
		for (int i = 0; i < 20; i++) {
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				int port = socket.getLocalPort();
				if (port != 6379) {
					return port;
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot find a free loopback port", ex);
			}
		}
		throw new IllegalStateException("Cannot find a free loopback port");
	}

	private static boolean ping(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
			socket.setSoTimeout(500);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = new byte[7];
			int read = 0;
			while (read < reply.length) {
				int n = in.read(reply, read, reply.length - read);
				if (n < 0) {
					break;
				}
				read += n;
			}
			return new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static String tailAndDelete(Path log) {
		try {
			List<String> lines = Files.readAllLines(log);
			Files.deleteIfExists(log);
			return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting redis-server", ex);
		}
	}

}
