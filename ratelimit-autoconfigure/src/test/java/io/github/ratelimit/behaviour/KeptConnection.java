package io.github.ratelimit.behaviour;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A keep-alive connection through {@code 127.0.0.1} that sends each request the moment
 * the answer to the one before is read, as a busy HTTP/1.1 client does: it finds a server
 * that reads the next request before it has finished with the last. When the server ends
 * the connection ({@code Connection: close}, as Tomcat does after 100 requests), the next
 * request goes on a new one.
 */
final class KeptConnection implements AutoCloseable {

	private final int port;

	private final Duration timeout;

	private Socket socket;

	private InputStream in;

	private OutputStream out;

	private int sent;

	private KeptConnection(int port, Duration timeout) throws IOException {
		this.port = port;
		this.timeout = timeout;
		connect();
	}

	/**
	 * Opens a connection to an app.
	 * @param port the app's port
	 * @param timeout how long a request may go unanswered before it counts as left
	 * waiting
	 * @return the connection
	 */
	static KeptConnection open(int port, Duration timeout) {
		try {
			return new KeptConnection(port, timeout);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void connect() throws IOException {
		Socket socket = new Socket();
		try {
			socket.setTcpNoDelay(true);
			socket.setSoTimeout((int) this.timeout.toMillis());
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 5000);
			this.in = new BufferedInputStream(socket.getInputStream());
			this.out = socket.getOutputStream();
			this.socket = socket;
		}
		catch (IOException ex) {
			socket.close();
			throw ex;
		}
	}

	/**
	 * Sends a {@code GET} and reads its response.
	 * @param path the path and query
	 * @param headers header names and values, alternating
	 * @return the response
	 * @throws AssertionError when the request is not answered within the timeout
	 */
	Reply get(String path, String... headers) {
		StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		for (int i = 0; i < headers.length; i += 2) {
			request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
		}
		request.append("\r\n");
		this.sent++;
		try {
			this.out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
			this.out.flush();
			Reply reply = Http.read(this.in);
			if (reply.header("Connection").filter("close"::equalsIgnoreCase).isPresent()) {
				this.socket.close();
				connect();
			}
			return reply;
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError("Request " + this.sent + " on this kept-alive connection was not answered within "
					+ this.timeout.toSeconds() + " s", ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
