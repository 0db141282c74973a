package io.github.ratelimit.storage.redis.connection;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletionStage;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * Wraps Lettuce's asynchronous commands so that every answer of Redis (a reply, or an
 * error Redis sent) is reported, for commands sent by a library the store does not
 * control (Bucket4j). The futures handed back are Lettuce's own.
 */
public final class AnswerWatch {

	private AnswerWatch() {
	}

	/**
	 * Wraps {@code commands}.
	 * @param type the commands' interface
	 * @param commands the asynchronous commands of Lettuce
	 * @param answered told of every answer, on a Lettuce I/O thread: must not block
	 * @return commands that report their answers
	 */
	public static <T> T of(Class<T> type, T commands, Runnable answered) {
		return type
			.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
				if (method.getDeclaringClass() == Object.class) {
					return switch (method.getName()) {
						case "equals" -> proxy == args[0];
						case "hashCode" -> System.identityHashCode(proxy);
						default -> "AnswerWatch(" + commands + ")";
					};
				}
				Object result;
				try {
					result = method.invoke(commands, args);
				}
				catch (InvocationTargetException ex) {
					throw ex.getCause();
				}
				if (result instanceof CompletionStage<?> answer) {
					answer.whenComplete((reply, failure) -> {
						// a lost connection or a local timeout is no answer
						if (failure == null || failure instanceof RedisCommandExecutionException
								|| failure.getCause() instanceof RedisCommandExecutionException) {
							answered.run();
						}
					});
				}
				return result;
			}));
	}

}
