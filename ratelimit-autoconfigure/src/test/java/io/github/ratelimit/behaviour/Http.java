package io.github.ratelimit.behaviour;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Real HTTP to a behavioural app: {@code java.net.http} for well-formed requests, raw
 * sockets for requests a well-behaved client refuses to send and for a chosen source
 * address.
 */
final class Http {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private Http() {
	}

	/**
	 * Sends a request through {@code 127.0.0.1}.
	 * @param port the app's port
	 * @param method the method
	 * @param path the path and query
	 * @param headers header names and values, alternating
	 * @return the reply
	 */
	static Reply send(int port, String method, String path, String... headers) {
		return sendJson(port, method, path, null, headers);
	}

	/**
	 * Sends a request with a JSON body through {@code 127.0.0.1}.
	 * @param port the app's port
	 * @param method the method
	 * @param path the path and query
	 * @param json the body, or {@code null} for none
	 * @param headers header names and values, alternating
	 * @return the reply
	 */
	static Reply sendJson(int port, String method, String path, @Nullable String json, String... headers) {
		return sendBody(port, method, path, json, "application/json", headers);
	}

	/**
	 * POSTs a form ({@code application/x-www-form-urlencoded}) through {@code 127.0.0.1}.
	 * @param port the app's port
	 * @param path the path and query
	 * @param form the encoded form ({@code username=ana&password=x})
	 * @param headers header names and values, alternating
	 * @return the reply
	 */
	static Reply sendForm(int port, String path, String form, String... headers) {
		return sendBody(port, "POST", path, form, "application/x-www-form-urlencoded", headers);
	}

	private static Reply sendBody(int port, String method, String path, @Nullable String body, String contentType,
			String... headers) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(TIMEOUT)
			.method(method,
					(body != null) ? HttpRequest.BodyPublishers.ofString(body) : HttpRequest.BodyPublishers.noBody());
		if (body != null) {
			builder.header("Content-Type", contentType);
		}
		if (headers.length > 0) {
			builder.headers(headers);
		}
		try {
			HttpResponse<String> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
			Map<String, List<String>> fields = new LinkedHashMap<>();
			response.headers().map().forEach((name, values) -> fields.put(name.toLowerCase(Locale.ROOT), values));
			return new Reply(response.statusCode(), fields, response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Sends raw bytes (ISO-8859-1) from a chosen local address and reads the whole
	 * response; the request should ask for {@code Connection: close}.
	 * @param from the local (source) address, such as {@code 127.0.0.2}
	 * @param port the app's port on {@code 127.0.0.1}
	 * @param request the request, head and body
	 * @return the reply
	 */
	static Reply raw(String from, int port, String request) {
		try (Socket socket = new Socket()) {
			socket.setSoTimeout((int) TIMEOUT.toMillis());
			socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
			socket.getOutputStream().flush();
			return read(socket.getInputStream());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends the head of a request and only the first byte of its body, reads the response
	 * and leaves the connection open, as a client that trickles its body would.
	 * @param port the app's port
	 * @param head the request head, ending with the empty line; it announces a longer
	 * body
	 * @return the open socket and the response
	 */
	static SlowClient slowBody(int port, String head) {
		Socket socket = new Socket();
		try {
			socket.setSoTimeout((int) TIMEOUT.toMillis());
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
			socket.getOutputStream().write((head + "x").getBytes(StandardCharsets.ISO_8859_1));
			socket.getOutputStream().flush();
			return new SlowClient(socket, read(socket.getInputStream()));
		}
		catch (IOException ex) {
			try {
				socket.close();
			}
			catch (IOException closing) {
				ex.addSuppressed(closing);
			}
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends raw bytes (ISO-8859-1) through {@code 127.0.0.1} and reads the response,
	 * leaving the connection open: the server may go on running the request after its
	 * response is complete.
	 * @param port the app's port
	 * @param request the request, head and body
	 * @return the open connection and the response
	 */
	static OpenConnection sendKeepingConnection(int port, String request) {
		Socket socket = new Socket();
		try {
			socket.setSoTimeout((int) TIMEOUT.toMillis());
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
			socket.getOutputStream().flush();
			return new OpenConnection(socket, read(socket.getInputStream()));
		}
		catch (IOException ex) {
			try {
				socket.close();
			}
			catch (IOException closing) {
				ex.addSuppressed(closing);
			}
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends a request through {@code 127.0.0.1} and hangs up at once with a reset,
	 * without reading the response.
	 * @param port the app's port
	 * @param request the request
	 */
	static void sendAndHangUp(int port, String request) {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.setSoLinger(true, 0);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
			socket.getOutputStream().flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Reads one response, and no more, from a stream. */
	static Reply read(InputStream in) throws IOException {
		String statusLine = line(in);
		if (statusLine == null) {
			throw new IOException("The server closed the connection without a response");
		}
		int status = Integer.parseInt(statusLine.split(" ")[1]);
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
			int colon = line.indexOf(':');
			headers
				.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), (name) -> new ArrayList<>())
				.add(line.substring(colon + 1).trim());
		}
		byte[] body;
		if (headers.containsKey("content-length")) {
			body = in.readNBytes(Integer.parseInt(headers.get("content-length").get(0)));
		}
		else if (headers.getOrDefault("transfer-encoding", List.of()).contains("chunked")) {
			body = chunked(in);
		}
		else {
			body = in.readAllBytes();
		}
		return new Reply(status, headers, new String(body, StandardCharsets.UTF_8));
	}

	private static byte[] chunked(InputStream in) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		for (String size = line(in); size != null; size = line(in)) {
			int length = Integer.parseInt(size.split(";")[0].trim(), 16);
			if (length == 0) {
				break;
			}
			body.write(in.readNBytes(length));
			line(in);
		}
		return body.toByteArray();
	}

	/** One line without its CRLF, or {@code null} at the end of the stream. */
	private static @Nullable String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != -1) {
			if (c == '\n') {
				int end = line.length();
				return (end > 0 && line.charAt(end - 1) == '\r') ? line.substring(0, end - 1) : line.toString();
			}
			line.append((char) c);
		}
		return (line.length() > 0) ? line.toString() : null;
	}

	/**
	 * A client that sent part of a body.
	 *
	 * @param socket its connection, still open
	 * @param reply what it was answered
	 */
	record SlowClient(Socket socket, Reply reply) implements AutoCloseable {

		/**
		 * Whether the server closed the connection within the time (the next read ends or
		 * is reset) rather than keep it open to read the rest of the body, behind which a
		 * keep-alive client's next request would wait.
		 * @param time how long to wait
		 * @return whether the connection was closed
		 * @throws IOException when the socket fails otherwise
		 */
		boolean closedByServerWithin(Duration time) throws IOException {
			this.socket.setSoTimeout((int) time.toMillis());
			try {
				return this.socket.getInputStream().read() == -1;
			}
			catch (SocketTimeoutException ex) {
				return false;
			}
			catch (SocketException ex) {
				// reset: closed all the same
				return true;
			}
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

	/**
	 * A connection whose response was read and that stays open.
	 *
	 * @param socket the connection
	 * @param reply the response
	 */
	record OpenConnection(Socket socket, Reply reply) implements AutoCloseable {

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
