package io.github.ratelimit.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * A fake API on a free port of the loopback address: it answers each request with the
 * next scripted reply (200 "ok" once the script is spent) and records every request that
 * reached it, so a test counts what went on the wire.
 */
final class ScriptedServer implements AutoCloseable {

	private final HttpServer server;

	private final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private volatile @Nullable Reply always;

	ScriptedServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	/** The next reply, after those scripted before. */
	ScriptedServer then(Reply reply) {
		this.script.add(reply);
		return this;
	}

	/** The reply to every request once the script is spent, instead of 200 "ok". */
	ScriptedServer thenAlways(Reply reply) {
		this.always = reply;
		return this;
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path);
	}

	/** The requests that reached the server, in order. */
	List<Received> received() {
		return List.copyOf(this.received);
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange; InputStream in = exchange.getRequestBody()) {
			String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			this.received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
					exchange.getRequestHeaders().getFirst("Idempotency-Key"), body));
			Reply reply = this.script.poll();
			if (reply == null) {
				reply = (this.always != null) ? this.always : Reply.status(200).body("text/plain", "ok");
			}
			reply.headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
			byte[] bytes = reply.body.getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(reply.status, (bytes.length > 0) ? bytes.length : -1);
			if (bytes.length > 0) {
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(bytes);
				}
			}
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/** A request as the server saw it. */
	record Received(String method, String path, @Nullable String idempotencyKey, String body) {
	}

	/** A scripted response. */
	static final class Reply {

		private final int status;

		private final Map<String, String> headers = new LinkedHashMap<>();

		private String body = "";

		private Reply(int status) {
			this.status = status;
		}

		static Reply status(int status) {
			return new Reply(status);
		}

		Reply header(String name, String value) {
			this.headers.put(name, value);
			return this;
		}

		Reply body(String contentType, String body) {
			this.headers.put("Content-Type", contentType);
			this.body = body;
			return this;
		}

	}

}
