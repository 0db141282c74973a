package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A load balancer in front of several instances of an app, as a client sees one API: one
 * host and port, each request forwarded to the next instance in turn, with its method,
 * headers and body, and the instance's response handed back as it came.
 */
final class RoundRobinProxy implements AutoCloseable {

	/** Hop-by-hop fields, and those the JDK client sets itself. */
	private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "host", "keep-alive",
			"transfer-encoding", "upgrade", "expect", "te", "trailer", "proxy-connection");

	private static final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final List<Integer> ports;

	private final AtomicInteger next = new AtomicInteger();

	private final ExecutorService executor = Executors.newFixedThreadPool(4);

	private final HttpServer server;

	private RoundRobinProxy(List<Integer> ports) throws IOException {
		this.ports = List.copyOf(ports);
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::forward);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	/**
	 * Starts a proxy on a free loopback port.
	 * @param ports the instances' ports, in turn
	 * @return the running proxy
	 */
	static RoundRobinProxy start(List<Integer> ports) {
		try {
			return new RoundRobinProxy(ports);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start the proxy", ex);
		}
	}

	int port() {
		return this.server.getAddress().getPort();
	}

	private void forward(HttpExchange exchange) throws IOException {
		try (exchange) {
			int port = this.ports.get(Math.floorMod(this.next.getAndIncrement(), this.ports.size()));
			byte[] body;
			try (InputStream in = exchange.getRequestBody()) {
				body = in.readAllBytes();
			}
			HttpRequest.Builder request = HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + port + exchange.getRequestURI()))
				.timeout(Duration.ofSeconds(30))
				.method(exchange.getRequestMethod(), (body.length > 0) ? HttpRequest.BodyPublishers.ofByteArray(body)
						: HttpRequest.BodyPublishers.noBody());
			exchange.getRequestHeaders().forEach((name, values) -> {
				if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
					values.forEach((value) -> request.header(name, value));
				}
			});
			HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
			response.headers().map().forEach((name, values) -> {
				if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
					exchange.getResponseHeaders().put(name, values);
				}
			});
			byte[] answer = response.body();
			exchange.sendResponseHeaders(response.statusCode(), (answer.length > 0) ? answer.length : -1);
			if (answer.length > 0) {
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(answer);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			exchange.sendResponseHeaders(502, -1);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
