package io.github.ratelimit.web.servlet;

import java.lang.reflect.Field;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.ActionCode;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * Tells Tomcat not to read the rest of a refused request's body.
 * {@code Connection: close} alone is not enough: Tomcat reads (swallows) the unread body
 * on a worker thread before it closes, so a client that trickles a body it was refused
 * for would hold the worker for as long as it likes. Tomcat keeps the switch
 * ({@code DISABLE_SWALLOW_INPUT}, what it does itself for an upload it rejected) behind
 * its request facade; this reaches it there, and does nothing on other containers or when
 * it cannot.
 */
final class TomcatRequests {

	private static final @Nullable Field FACADE_REQUEST = facadeRequest();

	private TomcatRequests() {
	}

	/**
	 * Closes the connection after the response instead of reading the rest of the
	 * request's body.
	 */
	static void closeWithoutReadingBody(ServletRequest request) {
		if (FACADE_REQUEST == null) {
			return;
		}
		ServletRequest unwrapped = request;
		while (unwrapped instanceof ServletRequestWrapper wrapper) {
			unwrapped = wrapper.getRequest();
		}
		if (unwrapped instanceof RequestFacade facade) {
			try {
				Request catalina = (Request) FACADE_REQUEST.get(facade);
				if (catalina != null) {
					catalina.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
					// Tomcat now counts the exchange as failed: the refusal is the whole
					// answer, not an error page
					catalina.getResponse().setErrorReported();
				}
			}
			catch (IllegalAccessException | RuntimeException ex) {
				// Connection: close is still on the response
			}
		}
	}

	private static @Nullable Field facadeRequest() {
		if (!ClassUtils.isPresent("org.apache.catalina.connector.RequestFacade",
				TomcatRequests.class.getClassLoader())) {
			return null;
		}
		try {
			Field field = RequestFacade.class.getDeclaredField("request");
			field.setAccessible(true);
			return field;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

}
