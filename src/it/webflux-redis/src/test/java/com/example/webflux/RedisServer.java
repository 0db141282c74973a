package com.example.webflux;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Redis these tests use: the one at RATELIMIT_REDIS_URL when set, else a redis-server from the PATH,
 * started on a free loopback port and stopped by {@link #close()}. Never flushed: tests write under a key
 * prefix of their own.
 */
final class RedisServer implements AutoCloseable {

	private final String url;

	private final Process process;

	private RedisServer(String url, Process process) {
		this.url = url;
		this.process = process;
	}

	static RedisServer start() throws IOException, InterruptedException {
		String external = System.getenv("RATELIMIT_REDIS_URL");
		if (external != null && !external.isBlank()) {
			return new RedisServer(external.trim(), null);
		}
		Path executable = findOnPath("redis-server");
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		Path directory = Files.createTempDirectory("webflux-redis-it");
		Process process = new ProcessBuilder(List.of(executable.toString(), "--port", Integer.toString(port), "--bind",
				"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory.toString()))
			.redirectErrorStream(true)
			.redirectOutput(directory.resolve("redis.log").toFile())
			.start();
		RedisServer server = new RedisServer("redis://127.0.0.1:" + port, process);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!answersPing(port)) {
			if (!process.isAlive() || System.nanoTime() > deadline) {
				server.close();
				throw new IllegalStateException("redis-server did not start: " + Files.readString(directory.resolve("redis.log")));
			}
			Thread.sleep(20);
		}
		return server;
	}

	String url() {
		return this.url;
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process != null) {
			this.process.destroy();
			if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
	}

	private static Path findOnPath(String name) {
		for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(directory, name);
			if (!directory.isEmpty() && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException("These tests need a Redis: install redis-server (apt-get install redis-server) "
				+ "or set RATELIMIT_REDIS_URL=redis://host:port");
	}

	private static boolean answersPing(int port) {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.setSoTimeout(1000);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = new byte[7];
			return in.readNBytes(reply, 0, 7) == 7 && new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
		}
		catch (IOException ex) {
			return false;
		}
	}

}
