package io.github.ratelimit.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A tiny real-HTTP client for the sample app's tests. */
final class Http {

	private static final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private Http() {
	}

	static HttpResponse<String> send(String method, String url, String... headers) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(10))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (headers.length > 0) {
			builder.headers(headers);
		}
		try {
			return client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** Sends raw bytes (ISO-8859-1), for requests a well-behaved client refuses to send; returns the status. */
	static int raw(int port, String request) throws IOException {
		try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
			socket.getOutputStream().flush();
			java.io.BufferedReader reader = new java.io.BufferedReader(new java.io.InputStreamReader(
					socket.getInputStream(), java.nio.charset.StandardCharsets.ISO_8859_1));
			String statusLine = reader.readLine();
			return Integer.parseInt(statusLine.split(" ")[1]);
		}
	}

}
