/**
 * A 99Food (DiDi Food) `orderNew` webhook on the demo store and products (see SEED_DEMO_DATA), delivered by
 * 99Food (`delivery_type` 1). Money in cents. Burger line `total_price` = (2590 + 350) × 2 = 5880; `order_price` =
 * 5880 + 650 = 6530. The items coupon (type 11, 10.00) is 4.00 the store's and 6.00 99Food's; free delivery
 * (type 3, 5.00) is 99Food's. The 19-digit ids are text here; sent as JSON numbers they are kept exactly too.
 */
export const NINETY_NINE_FOOD_ORDER_EXAMPLE = {
  app_id: '5764607584567296012',
  app_shop_id: 'demo-store-1',
  timestamp: 1763738368,
  type: 'orderNew',
  data: {
    order_id: '1152921547153933576',
    order_info: {
      order_id: '1152921547153933576',
      status: 100,
      order_index: 2,
      remark: '',
      country: 'BR',
      timezone: 'America/Sao_Paulo',
      pay_type: 1,
      delivery_type: 1,
      fulfillment_mode: 0,
      create_time: 1763738368,
      price: {
        order_price: 6530,
        delivery_price: 799,
        items_discount: 1000,
        delivery_discount: 500,
        others_fees: { small_order_price: 0, meal_top_up_price: 0, service_price: 199, total_tip_money: 300 },
      },
      shop: { shop_id: '5764607688097661019', app_shop_id: 'demo-store-1', shop_name: 'Demo Burger House - Paulista' },
      receive_address: {
        name: 'Ana Souza',
        first_name: 'Ana',
        last_name: 'Souza',
        calling_code: '+55',
        phone: '11999990000',
        city: 'São Paulo',
        poi_address: 'Avenida Paulista, 1000 - Bela Vista, São Paulo - SP, 01310-100',
        house_number: '1000',
        poi_lat: -23.5651,
        poi_lng: -46.6519,
      },
      order_items: [
        {
          app_item_id: 'demo-burger',
          app_external_id: '',
          name: 'Classic burger',
          total_price: 5880,
          sku_price: 2590,
          amount: 2,
          sub_item_list: [
            {
              app_item_id: 'demo-extra-cheese',
              app_external_id: '',
              name: 'Extra cheese',
              total_price: 350,
              sku_price: 350,
              amount: 1,
              sub_item_list: [],
            },
          ],
        },
        {
          app_item_id: 'demo-cola',
          app_external_id: 'SKU-COLA-350',
          name: 'Cola can 350 ml',
          total_price: 650,
          sku_price: 650,
          amount: 1,
          sub_item_list: [],
        },
      ],
      promotions: [
        { promo_type: 11, promo_discount: 1000, shop_subside_price: 400 },
        { promo_type: 3, promo_discount: 500, shop_subside_price: 0 },
      ],
    },
  },
};
