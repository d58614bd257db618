/*
 * OpenCL events: an event is a marker (clEnqueueMarkerWithWaitList), and recording one
 * flushes its queue so another queue waiting on it (clEnqueueBarrierWithWaitList) cannot wait
 * on unsubmitted work. Times are the markers' CL_PROFILING_COMMAND_END.
 */
#include "opencl_internal.h"

magnus_status magnus_cl_event_record(magnus_bqueue *q, magnus_bevent **out) {
    cl_event e = NULL;
    *out = NULL;
    cl_int err = magnus_cl.EnqueueMarkerWithWaitList(magnus_cl_queue(q), 0, NULL, &e);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueMarkerWithWaitList");
    err = magnus_cl.Flush(magnus_cl_queue(q));
    if (err != CL_SUCCESS) {
        magnus_cl.ReleaseEvent(e);
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clFlush");
    }
    *out = (magnus_bevent *)(void *)e;
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_queue_wait_event(magnus_bqueue *q, magnus_bevent *event) {
    cl_event e = magnus_cl_event(event);
    cl_int err = magnus_cl.EnqueueBarrierWithWaitList(magnus_cl_queue(q), 1, &e, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clEnqueueBarrierWithWaitList");
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_event_synchronize(magnus_bevent *event) {
    cl_event e = magnus_cl_event(event);
    cl_int err = magnus_cl.WaitForEvents(1, &e);
    if (err != CL_SUCCESS) return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clWaitForEvents");
    return MAGNUS_SUCCESS;
}

magnus_status magnus_cl_event_elapsed_ms(magnus_bevent *start, magnus_bevent *end,
                                        double *ms) {
    cl_ulong t0 = 0, t1 = 0;
    cl_int err = magnus_cl.GetEventProfilingInfo(magnus_cl_event(start), CL_PROFILING_COMMAND_END,
                                                 sizeof t0, &t0, NULL);
    if (err == CL_SUCCESS)
        err = magnus_cl.GetEventProfilingInfo(magnus_cl_event(end), CL_PROFILING_COMMAND_END,
                                              sizeof t1, &t1, NULL);
    if (err != CL_SUCCESS)
        return magnus_cl_fail(err, MAGNUS_ERROR_DEVICE, "clGetEventProfilingInfo");
    *ms = t1 > t0 ? (double)(t1 - t0) * 1e-6 : 0.0;
    return MAGNUS_SUCCESS;
}

void magnus_cl_event_destroy(magnus_bevent *event) {
    if (event) magnus_cl.ReleaseEvent(magnus_cl_event(event));
}
