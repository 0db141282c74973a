package io.github.ratelimit.web.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.github.ratelimit.web.RequestLifecycle;

/**
 * Ends the lifecycle of a request that went asynchronous when its asynchronous processing
 * ends: completed, failed (a client that went away included) or timed out. A timed-out or
 * failed request's handler is abandoned, so its permits come back then rather than when
 * the container finally completes it. A completed request ends with its response's final
 * status; a timed-out or failed one with an unknown status, so limits that count only
 * some responses keep counting it.
 */
final class AsyncLifecycleListener implements AsyncListener {

	private final RequestLifecycle lifecycle;

	private final HttpServletResponse response;

	private AsyncLifecycleListener(RequestLifecycle lifecycle, HttpServletResponse response) {
		this.lifecycle = lifecycle;
		this.response = response;
	}

	/**
	 * Hands the lifecycle of a request that went asynchronous to its
	 * {@link AsyncContext}.
	 * @param request a request whose {@link HttpServletRequest#isAsyncStarted()} was
	 * {@code true}
	 * @param response its response, whose status ends the lifecycle
	 * @param lifecycle the request's lifecycle
	 * @return {@code false} when the asynchronous processing was already over: the caller
	 * ends the lifecycle
	 */
	static boolean endOnAsyncEnd(HttpServletRequest request, HttpServletResponse response, RequestLifecycle lifecycle) {
		try {
			request.getAsyncContext().addListener(new AsyncLifecycleListener(lifecycle, response));
			return true;
		}
		catch (IllegalStateException ex) {
			// completed (or never started) between isAsyncStarted() and here: no event
			// will come
			return false;
		}
	}

	@Override
	public void onComplete(AsyncEvent event) {
		this.lifecycle.end(this.response.getStatus());
	}

	@Override
	public void onTimeout(AsyncEvent event) {
		this.lifecycle.end();
	}

	@Override
	public void onError(AsyncEvent event) {
		this.lifecycle.end();
	}

	@Override
	public void onStartAsync(AsyncEvent event) {
		// a new asynchronous cycle (an async dispatch that starts again) drops its
		// listeners: stay for its end
		AsyncContext context = event.getAsyncContext();
		if (context != null) {
			context.addListener(this);
		}
	}

}
