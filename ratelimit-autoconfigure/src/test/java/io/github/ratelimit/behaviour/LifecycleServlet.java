package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The lifecycle app on the servlet stack (Tomcat, no Spring MVC): the endpoints
 * {@link LifecycleServer} describes, and two asynchronous ones.
 */
final class LifecycleServlet extends HttpServlet {

	private final LifecycleGate gate;

	LifecycleServlet(LifecycleGate gate) {
		this.gate = gate;
	}

	@Override
	protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
		switch (request.getRequestURI()) {
			case "/capped/fail" -> throw new IllegalStateException("handler failed");
			case "/capped/hold" -> hold(response);
			case "/capped/stream" -> stream(response);
			case "/capped/async" -> {
				// completes on another thread once the gate opens
				AsyncContext async = request.startAsync();
				this.gate.entered();
				this.gate.closed().thenRun(() -> async.start(() -> {
					try {
						write(async.getResponse().getOutputStream(), "released");
					}
					catch (IOException ex) {
						// the client went away: the container reports it to the async
						// listeners
					}
					finally {
						this.gate.left();
						async.complete();
					}
				}));
			}
			case "/capped/async-timeout" -> {
				// never completed: the container times it out
				request.startAsync().setTimeout(200);
			}
			default -> write(response.getOutputStream(), "ok");
		}
	}

	private void hold(HttpServletResponse response) throws IOException {
		this.gate.entered();
		try {
			this.gate.closed().get(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			this.gate.left();
		}
		write(response.getOutputStream(), "released");
	}

	// a chunk every 10 ms for up to 10 s: a client that goes away makes the next write
	// fail
	private static void stream(HttpServletResponse response) throws IOException {
		ServletOutputStream out = response.getOutputStream();
		byte[] chunk = new byte[1024];
		for (int i = 0; i < 1000; i++) {
			out.write(chunk);
			out.flush();
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	private static void write(ServletOutputStream out, String body) throws IOException {
		out.write(body.getBytes(StandardCharsets.UTF_8));
	}

}
