package io.github.ratelimit.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;

/** A tiny real-HTTP client for the sample app's tests. */
final class Http {

	private static final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private Http() {
	}

	static HttpResponse<String> send(String method, String url, String... headers) {
		return send(method, url, HttpRequest.BodyPublishers.noBody(), headers);
	}

	/** The header of HTTP Basic credentials, as a name and a value to pass as headers. */
	static String[] basic(String user, String password) {
		String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		return new String[] { "Authorization", "Basic " + token };
	}

	/** Sends a JSON body, as Actuator's write operations take their arguments. */
	static HttpResponse<String> json(String method, String url, String body, String... headers) {
		String[] all = Arrays.copyOf(headers, headers.length + 2);
		all[headers.length] = "Content-Type";
		all[headers.length + 1] = "application/json";
		return send(method, url, HttpRequest.BodyPublishers.ofString(body), all);
	}

	private static HttpResponse<String> send(String method, String url, HttpRequest.BodyPublisher body,
			String... headers) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url))
			.timeout(Duration.ofSeconds(10))
			.method(method, body);
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

	/**
	 * Sends raw bytes (ISO-8859-1), for requests a well-behaved client refuses to send;
	 * returns the status.
	 */
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
