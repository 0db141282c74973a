package io.github.ratelimit.test.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Asks a Redis whether it is up with a bare {@code PING} over a socket, so waiting for a
 * server needs no client library and never hangs.
 */
final class RedisPing {

	private static final int TIMEOUT_MILLIS = 500;

	private RedisPing() {
	}

	/**
	 * Whether a Redis at {@code host:port} answers {@code PONG} (or asks for a password).
	 */
	static boolean answers(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = in.readNBytes(5);
			String text = new String(reply, StandardCharsets.US_ASCII);
			// "-NOAUTH ..." still proves a Redis is listening
			return text.equals("+PONG") || text.startsWith("-NOAU");
		}
		catch (IOException ex) {
			return false;
		}
	}

}
