/** One valid delivery-settings form (as typed: state names, a formatted phone, clock times), for unit and Worker tests. */
export const SAMPLE_DELIVERY_SETTINGS = {
  transferPhone: "555-222-3333",
  states: "GA, Florida",
  hoursStart: "08:30",
  hoursEnd: "18:00",
  timeZone: "America/New_York",
  perDayCap: "4",
};
