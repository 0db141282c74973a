package io.github.ratelimit.web.servlet;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Tells Tomcat not to read the rest of a refused request's body.
 * {@code Connection: close} alone is not enough: Tomcat reads (swallows) the unread body
 * on a worker thread before it closes, so a client that trickles a body it was refused
 * for would hold the worker for as long as it likes. Tomcat's switch for that
 * ({@code DISABLE_SWALLOW_INPUT}, what it does itself for an upload it rejected) is on
 * its own request, which a filter does not see; a valve of the application's context
 * does, so the refusals {@linkplain #closeWithoutReadingBody(ServletRequest) mark the
 * request} and this valve throws the switch once the filters are done. Registered by the
 * auto-configuration on Boot's embedded Tomcat; elsewhere the refusal's
 * {@code Connection: close} stands alone.
 */
public final class RefusedBodyValve extends ValveBase {

	private static final String CLOSE_WITHOUT_READING_BODY = RefusedBodyValve.class.getName()
			+ ".closeWithoutReadingBody";

	/** Creates the valve; it supports asynchronous requests. */
	public RefusedBodyValve() {
		super(true);
	}

	/**
	 * Marks a refused request whose body was not read: the connection is closed after the
	 * response instead of reading the rest of the body.
	 * @param request the refused request
	 */
	static void closeWithoutReadingBody(ServletRequest request) {
		request.setAttribute(CLOSE_WITHOUT_READING_BODY, Boolean.TRUE);
	}

	@Override
	public void invoke(Request request, Response response) throws IOException, ServletException {
		getNext().invoke(request, response);
		if (request.getAttribute(CLOSE_WITHOUT_READING_BODY) != null) {
			request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
			// Tomcat now counts the exchange as failed: the refusal is the whole answer,
			// not an error page
			response.setErrorReported();
		}
	}

}
