package io.github.ratelimit.test.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server on a loopback port that speaks no Redis: it answers every read with bytes that
 * are not RESP, accepts connections and never answers, or closes them at once. For fault
 * tests of what the stores do with a broken server, which a real redis-server cannot be
 * made to be.
 */
public final class FakeRedisServer implements AutoCloseable {

	/** What the server does with what it reads. */
	public enum Behaviour {

		/** Answers every read with garbage. */
		GARBAGE,

		/** Reads and never answers. */
		HANG,

		/** Closes every connection at once: each connect fails. */
		CLOSE

	}

	private final ServerSocket socket;

	private final Behaviour behaviour;

	private final List<Socket> accepted = new CopyOnWriteArrayList<>();

	private final AtomicInteger connections = new AtomicInteger();

	private final Thread acceptor;

	private FakeRedisServer(Behaviour behaviour) throws IOException {
		this.behaviour = behaviour;
		this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.acceptor = new Thread(this::accept, "fake-redis-" + behaviour.name().toLowerCase());
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/** Starts a server with the behaviour on a free loopback port. */
	public static FakeRedisServer start(Behaviour behaviour) {
		try {
			return new FakeRedisServer(behaviour);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start a fake Redis server", ex);
		}
	}

	/** The URL clients connect with. */
	public String url() {
		return "redis://127.0.0.1:" + this.socket.getLocalPort();
	}

	/** How many connections the server accepted so far. */
	public int connections() {
		return this.connections.get();
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket client = this.socket.accept();
				this.connections.incrementAndGet();
				if (this.behaviour == Behaviour.CLOSE) {
					client.close();
					continue;
				}
				this.accepted.add(client);
				Thread serving = new Thread(() -> serve(client), "fake-redis-client");
				serving.setDaemon(true);
				serving.start();
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private void serve(Socket client) {
		byte[] buffer = new byte[4096];
		try (InputStream in = client.getInputStream(); OutputStream out = client.getOutputStream()) {
			while (in.read(buffer) >= 0) {
				if (this.behaviour == Behaviour.GARBAGE) {
					out.write("?!not-resp\u0000\u00ff garbage\r\n".getBytes(StandardCharsets.ISO_8859_1));
					out.flush();
				}
			}
		}
		catch (IOException ex) {
			// the client went away
		}
	}

	@Override
	public void close() {
		try {
			this.socket.close();
			for (Socket client : this.accepted) {
				client.close();
			}
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

}
