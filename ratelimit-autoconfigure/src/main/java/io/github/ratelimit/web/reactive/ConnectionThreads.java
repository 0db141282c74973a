package io.github.ratelimit.web.reactive;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

import org.jspecify.annotations.Nullable;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.util.ClassUtils;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;

/**
 * Where an exchange goes on after something finished on another thread (a Redis reply,
 * the end of a wait): on Reactor Netty, the event loop that serves its connection, where
 * WebFlux runs the application when nothing comes between; on other servers, a fallback
 * scheduler.
 * <p>
 * Not a shared pool on Netty: a response written from another thread is handed to the
 * event loop, and the exchange ends there a task later. A keep-alive request read in
 * between is held by Reactor Netty until it ends, and before 1.3.8 a held request
 * answered at once left the connection unread (<a href=
 * "https://github.com/reactor/reactor-netty/issues/4361">reactor-netty#4361</a>): its
 * client waited for good. Written on the event loop, the response and the end of the
 * exchange happen in one task, before the next request is read.
 */
final class ConnectionThreads {

	private static final boolean REACTOR_NETTY = ClassUtils.isPresent("reactor.netty.Connection",
			ConnectionThreads.class.getClassLoader());

	private final Scheduler fallback;

	/** One scheduler per event loop: a server has a few, fixed for its life. */
	private final Map<ScheduledExecutorService, Scheduler> eventLoops = new ConcurrentHashMap<>();

	/**
	 * Creates the threads of a filter.
	 * @param fallback where exchanges of servers other than Reactor Netty go on; it must
	 * support delays
	 */
	ConnectionThreads(Scheduler fallback) {
		this.fallback = fallback;
	}

	/**
	 * The scheduler an exchange goes on with after work done on another thread, and the
	 * timer of its waits.
	 * @param request the exchange's request
	 * @return its connection's event loop on Reactor Netty, else the fallback
	 */
	Scheduler of(ServerHttpRequest request) {
		ScheduledExecutorService eventLoop = REACTOR_NETTY ? NettyEventLoop.of(request) : null;
		return (eventLoop != null) ? this.eventLoops.computeIfAbsent(eventLoop, Schedulers::fromExecutorService)
				: this.fallback;
	}

	/** Kept apart so that nothing loads Reactor Netty's types where it is absent. */
	private static final class NettyEventLoop {

		static @Nullable ScheduledExecutorService of(ServerHttpRequest request) {
			// unwrapped here rather than by ServerHttpRequestDecorator.getNativeRequest,
			// which throws for a wrapper of another kind: no exception per request
			ServerHttpRequest unwrapped = request;
			while (unwrapped instanceof ServerHttpRequestDecorator decorator) {
				unwrapped = decorator.getDelegate();
			}
			if (!(unwrapped instanceof AbstractServerHttpRequest serverRequest)) {
				return null;
			}
			try {
				Object nativeRequest = serverRequest.getNativeRequest();
				return (nativeRequest instanceof Connection connection) ? connection.channel().eventLoop() : null;
			}
			catch (IllegalStateException ex) {
				// a mock: no server, no native request
				return null;
			}
		}

	}

}
