package io.github.ratelimit.web.servlet;

import java.io.IOException;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

/**
 * Gives the rate limiter's filter a way to set its headers on Tomcat's own response as
 * bytes ({@link TomcatHeaders}), which a filter cannot reach through the servlet API.
 * Registered by the auto-configuration on Boot's embedded Tomcat.
 */
public final class ResponseHeadersValve extends ValveBase {

	/** Creates the valve; it supports asynchronous requests. */
	public ResponseHeadersValve() {
		super(true);
	}

	@Override
	public void invoke(Request request, Response response) throws IOException, ServletException {
		request.setAttribute(ResponseHeaders.ATTRIBUTE, new TomcatHeaders(response));
		getNext().invoke(request, response);
	}

}
