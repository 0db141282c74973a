package io.github.ratelimit.test.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Watches what a Redis executes ({@code MONITOR}), to count the commands a store sends.
 * MONITOR reports the commands a script runs too, marked {@code lua}.
 */
public final class RedisMonitor implements AutoCloseable {

	// 1700000000.123456 [0 127.0.0.1:54321] "EVALSHA" "..." or [0 lua] "HMGET" "..."
	private static final Pattern LINE = Pattern.compile("^\\+?[\\d.]+ \\[\\d+ ([^\\]]+)\\] \"([^\"]+)\"(.*)$");

	private final Socket socket;

	private final List<Command> commands = new CopyOnWriteArrayList<>();

	private RedisMonitor(Socket socket) {
		this.socket = socket;
	}

	/**
	 * Starts watching; returns once Redis has confirmed, so nothing after this call is
	 * missed.
	 * @param host the server
	 * @param port its port
	 * @return the monitor
	 */
	public static RedisMonitor start(String host, int port) {
		try {
			Socket socket = new Socket(host, port);
			OutputStream out = socket.getOutputStream();
			out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			String ok = in.readLine();
			if (!"+OK".equals(ok)) {
				socket.close();
				throw new IllegalStateException("MONITOR answered " + ok);
			}
			RedisMonitor monitor = new RedisMonitor(socket);
			Thread reader = new Thread(() -> monitor.read(in), "redis-monitor");
			reader.setDaemon(true);
			reader.start();
			return monitor;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void read(BufferedReader in) {
		try {
			String line;
			while ((line = in.readLine()) != null) {
				Matcher matcher = LINE.matcher(line);
				if (matcher.matches()) {
					this.commands.add(new Command(matcher.group(2).toUpperCase(), matcher.group(1).equals("lua"),
							matcher.group(3)));
				}
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	/** The commands seen so far whose arguments contain {@code text}. */
	public List<Command> commands(String text) {
		List<Command> matching = new ArrayList<>();
		for (Command command : this.commands) {
			if (command.arguments().contains(text)) {
				matching.add(command);
			}
		}
		return matching;
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// nothing to do
		}
	}

	/**
	 * One command Redis executed.
	 *
	 * @param name the command, upper case
	 * @param fromScript whether a script ran it
	 * @param arguments the rest of the line, as MONITOR quotes it
	 */
	public record Command(String name, boolean fromScript, String arguments) {
	}

}
